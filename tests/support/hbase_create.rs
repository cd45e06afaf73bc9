//! The hbase shell's `create` under Debian's `jruby`, with a stand-in for
//! HBase's split reader (`Bytes.toBytesBinary`) compiled by `javac`: what
//! the table-creation lines of `render_splits` (tests/render.rs) and
//! `lexikey plan --for hbase` (cli/tests/design.rs) are checked with. A
//! missing jruby or javac fails the test, naming the package.
#![allow(dead_code)]

use std::process::{Command, Stdio};

/// Stand-in for HBase's `Bytes.toBytesBinary(String)`, the reader the
/// hbase shell's `create` applies to each of its `SPLITS` (hbase-shell
/// admin.rb): `\xNN` (two hex digits, either case) is byte NN; a `\x` not
/// followed by two hex digits is dropped; every other char is its low byte.
const JAVA_BYTES: &str = r#"package org.apache.hadoop.hbase.util;

/** Stand-in for HBase's Bytes: toBytesBinary, and hex for the test's output. */
public class Bytes {
    public static byte[] toBytesBinary(String in) {
        byte[] b = new byte[in.length()];
        int size = 0;
        for (int i = 0; i < in.length(); ++i) {
            char ch = in.charAt(i);
            if (ch == '\\' && in.length() > i + 1 && in.charAt(i + 1) == 'x') {
                if (in.length() > i + 3
                        && Character.digit(in.charAt(i + 2), 16) >= 0
                        && Character.digit(in.charAt(i + 3), 16) >= 0) {
                    b[size++] = (byte) ((Character.digit(in.charAt(i + 2), 16) << 4)
                            + Character.digit(in.charAt(i + 3), 16));
                    i += 3;
                }
                continue;
            }
            b[size++] = (byte) ch;
        }
        byte[] out = new byte[size];
        System.arraycopy(b, 0, out, 0, size);
        return out;
    }

    public static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(2 * b.length);
        for (byte x : b) {
            s.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return s.toString();
    }
}
"#;

/// The stand-in hbase shell for `create`: the table, the family, then
/// each split as `create` hands it to HBase (`Bytes.toBytesBinary` of the
/// Ruby string), in hex, on one line per command.
const JRUBY_CREATE: &str = r#"
require 'java'
$stdout.binmode
SPLITS = 'SPLITS'
def create(table, family, args = {})
  raise "table is not a String: #{table.class}" unless table.is_a?(String)
  raise "family is not a String: #{family.class}" unless family.is_a?(String)
  extra = args.keys - [SPLITS]
  raise "unexpected options #{extra.inspect}" unless extra.empty?
  splits = (args[SPLITS] || []).map do |s|
    raise "split is not a String: #{s.class}" unless s.is_a?(String)
    org.apache.hadoop.hbase.util.Bytes.hex(org.apache.hadoop.hbase.util.Bytes.toBytesBinary(s))
  end
  puts ([table.unpack1('H*'), family.unpack1('H*')] + splits).join(' ')
end
$stdin.binmode
$stdin.each_line { |line| eval(line.force_encoding('UTF-8'), TOPLEVEL_BINDING) }
"#;

fn which(program: &str) -> String {
    for dir in ["/usr/bin", "/bin", "/usr/local/bin"] {
        let p = format!("{dir}/{program}");
        if std::path::Path::new(&p).exists() {
            return p;
        }
    }
    program.to_string() // let spawn fail with its own message
}

/// Runs `lines` (one `create` command each) in the stand-in shell; its
/// stdout: per command, the table, the family and each split as HBase
/// receives it, in lowercase hex, space-separated. `tag` names the
/// directory of the stand-ins under the test target's temporary directory.
pub(crate) fn run(lines: &str, tag: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{tag}-hbase-create-{}", std::process::id()));
    let src = dir.join("src/org/apache/hadoop/hbase/util");
    std::fs::create_dir_all(&src).expect("mkdir");
    std::fs::write(src.join("Bytes.java"), JAVA_BYTES).expect("write");
    let classes = dir.join("classes");
    let out = Command::new(which("javac"))
        .arg("-d")
        .arg(&classes)
        .arg(src.join("Bytes.java"))
        .output()
        .expect("javac (apt-get install -y openjdk-17-jdk-headless)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shell = dir.join("create.rb");
    std::fs::write(&shell, JRUBY_CREATE).expect("write");
    let input = dir.join("lines.rb");
    std::fs::write(&input, lines).expect("write");
    let out = Command::new(which("jruby"))
        .args(["--dev", "-J-Xmx512m", "-W0"])
        .arg(&shell)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", env!("CARGO_TARGET_TMPDIR"))
        .env("LC_ALL", "C")
        .env("CLASSPATH", &classes)
        .stdin(Stdio::from(std::fs::File::open(&input).expect("open")))
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run jruby: {e}. This test must not be skipped: install the Debian package `jruby`")
        });
    assert!(
        out.status.success(),
        "jruby failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("hex output")
}
