package lexikey;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The examples of java/README.md, as a user copies them: every
 * {@code java} block is a class, compiled against lexikey.jar and run with
 * assertions on ({@code java -ea}); every {@code $ java …} transcript is run
 * and must print what follows it.
 */
class ReadmeTest {
    @Test
    void fromJavaExamplesRun() throws Exception {
        String section = Files.readString(Support.ROOT.resolve("java/README.md"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(section);
        String jar = System.getProperty("lexikey.jar");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int ran = 0;
        while (m.find()) {
            String code = m.group(1);
            Matcher name = Pattern.compile("public (?:final )?class (\\w+)").matcher(code);
            assertThat(name.find()).as("a java block is a public class:\n" + code).isTrue();
            Path dir = Files.createTempDirectory("lexikey-readme");
            Path src = dir.resolve(name.group(1) + ".java");
            Files.writeString(src, code, StandardCharsets.UTF_8);
            int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-Xlint:all", "-Werror",
                    "-cp", jar, "-d", dir.toString(), src.toString());
            assertThat(rc).as("javac " + src).isZero();
            List<String> cmd = new ArrayList<>(List.of(java, "-ea", "-cp", jar + ":" + dir, name.group(1)));
            Support.Run r = Support.run(cmd, null);
            assertThat(r.status()).as(name.group(1) + ": " + r.err()).isZero();
            ran++;
        }
        assertThat(ran).isGreaterThanOrEqualTo(1);
        // The transcripts: "$ java -cp java/build/lexikey.jar lexikey.Main ARGS"
        // or "$ java -jar java/build/lexikey.jar ARGS", then the output.
        String cpPrefix = "$ java -cp java/build/lexikey.jar lexikey.Main ";
        String jarPrefix = "$ java -jar java/build/lexikey.jar ";
        String[] lines = section.split("\n");
        int transcripts = 0;
        for (int i = 0; i < lines.length; i++) {
            String prefix = lines[i].startsWith(cpPrefix) ? cpPrefix : lines[i].startsWith(jarPrefix) ? jarPrefix : null;
            if (prefix == null) {
                continue;
            }
            StringBuilder want = new StringBuilder();
            for (int j = i + 1; j < lines.length && !lines[j].startsWith("$ ") && !lines[j].startsWith("```"); j++) {
                want.append(lines[j]).append('\n');
            }
            List<String> cmd = new ArrayList<>(prefix.equals(cpPrefix)
                    ? List.of(java, "-cp", jar, "lexikey.Main") : List.of(java, "-jar", jar));
            cmd.addAll(List.of(lines[i].substring(prefix.length()).split(" ")));
            Support.Run r = Support.run(cmd, null);
            assertThat(r.status()).as(lines[i] + ": " + r.err()).isZero();
            assertThat(r.out()).as(lines[i]).isEqualTo(want.toString());
            transcripts++;
        }
        assertThat(transcripts).isGreaterThanOrEqualTo(3);
    }
}
