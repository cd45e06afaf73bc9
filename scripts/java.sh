#!/usr/bin/env bash
# The Java package (java/: the JNI crate lexikey-java and the Java package
# lexikey): set-up, build, docs, tests, the Spark job, the benchmark.
#
#   scripts/java.sh setup        # a JDK (javac, jar, javadoc), Debian's junit5 and
#                                # libassertj-core-java (only what is missing)
#   scripts/java.sh build        # the cdylib (release) and java/build/lexikey.jar (with the
#                                # host's library) and lexikey-sources.jar
#   scripts/java.sh package PLATFORM=LIBRARY...
#                                # adds libraries built on other platforms to lexikey.jar
#   scripts/java.sh doc          # Javadoc of every public type, -Xdoclint:all -Werror, and
#                                # java/build/lexikey-javadoc.jar
#   scripts/java.sh test [ARGS]  # compile java/src/test and run it with JUnit's console
#                                # launcher (ARGS go to the launcher, e.g. --select-class
#                                # lexikey.FixturesTest)
#   scripts/java.sh spark [ROWS] [MODE]
#                                # the Spark job (java/examples) on ROWS rows (default
#                                # 1000000) with PySpark's spark-submit --master local[2];
#                                # MODE partitions (mapPartitions and the streaming
#                                # Schema.encodeBytesMany, the default) or udf (a UDF per row)
#   scripts/java.sh bench        # Schema.encodeTextMany speed and JNI overhead (BENCHMARKS.md)
#
# The jar carries the native library of each platform it was packed with
# as a resource, lexikey/native/OS-ARCH/NAME (NAME: liblexikey_jni.so,
# liblexikey_jni.dylib or lexikey_jni.dll), listed in
# lexikey/native/platforms.txt, and loads the JVM's own on first use; its
# manifest names Main-Class lexikey.Main (java -jar lexikey.jar encode …)
# and Implementation-Version. Tested here on linux-x86_64 only.
# LEXIKEY_JAVA_PROFILE=test takes the library from the one test build of
# scripts/lib.sh (lexikey_build: `test` profile, LEXIKEY_FEATURES) instead
# of a release build: scripts/test.sh does, so that the JNI crate is the
# only crate compiled for it (a release build of the store clients costs
# minutes); speed is measured on release builds only (bench).
#
# The tests compare with the command line (target/<profile>/lexikey, built
# here if missing) and, for the allocator, use the servers of
# scripts/with-stores.sh (LEXIKEY_REDIS_URL, LEXIKEY_POSTGRES_URL,
# LEXIKEY_ETCD_URL); without them those tests are skipped, never passed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh
root=$PWD
target=${CARGO_TARGET_DIR:-$root/target}
profile=${LEXIKEY_JAVA_PROFILE:-release}
case "$profile" in
  release) profile_dir=release ;;
  test | dev) profile_dir=debug ;;
  *) echo "java.sh: LEXIKEY_JAVA_PROFILE is release or test, not $profile" >&2; exit 2 ;;
esac
build=$root/java/build
jars=/usr/share/java
test_cp="$jars/junit-jupiter-api.jar:$jars/junit-jupiter-params.jar:$jars/opentest4j.jar:$jars/apiguardian-api.jar:$jars/junit-platform-commons.jar:$jars/assertj-core.jar"

apt_install() {
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=300 update -qq
  "${sudo[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "$@"
}

setup() {
  local missing=()
  command -v javac >/dev/null 2>&1 && command -v javadoc >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
  [ -f "$jars/junit-platform-console-standalone.jar" ] || missing+=(junit5)
  [ -f "$jars/assertj-core.jar" ] || missing+=(libassertj-core-java)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "java.sh: installing ${missing[*]}"
    apt_install "${missing[@]}"
  fi
}

# The host's platform as the jar names it (OS-ARCH, as Native.platform()
# computes it in Java) and the library's file name there.
host_platform() {
  local os arch
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=macos ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
    *) os=$(uname -s | tr '[:upper:]' '[:lower:]') ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x86_64 ;;
    arm64 | aarch64) arch=aarch64 ;;
    *) arch=$(uname -m) ;;
  esac
  echo "$os-$arch"
}

library_name() { # library_name PLATFORM
  case "$1" in
    macos-*) echo liblexikey_jni.dylib ;;
    windows-*) echo lexikey_jni.dll ;;
    *) echo liblexikey_jni.so ;;
  esac
}

version() { sed -n 's/^version = "\(.*\)"$/\1/p' java/Cargo.toml | head -1; }

# jar_up: java/build/lexikey.jar from java/build/classes (the classes and
# every library under lexikey/native/), with its manifest, platforms.txt,
# and lexikey-sources.jar beside it.
jar_up() {
  local native=$build/classes/lexikey/native
  (cd "$native" && find . -mindepth 2 -maxdepth 2 -type f | cut -d/ -f2 | sort -u) >"$native/platforms.txt"
  cat >"$build/manifest.txt" <<EOM
Main-Class: lexikey.Main
Implementation-Title: lexikey
Implementation-Version: $(version)
EOM
  rm -f "$build/lexikey.jar"
  jar --create --file "$build/lexikey.jar" --manifest "$build/manifest.txt" -C "$build/classes" .
  rm -f "$build/lexikey-sources.jar"
  jar --create --file "$build/lexikey-sources.jar" -C java/src/main/java .
}

build() {
  if [ "$profile" = release ]; then
    cargo build -p lexikey-java --release -j2 --quiet
  else
    lexikey_build --quiet
  fi
  local platform lib
  platform=$(host_platform)
  lib=$(library_name "$platform")
  rm -rf "$build/classes"
  mkdir -p "$build/classes/lexikey/native/$platform"
  javac --release 17 -encoding UTF-8 -Xlint:all -Werror -d "$build/classes" java/src/main/java/lexikey/*.java
  cp "$target/$profile_dir/$lib" "$build/classes/lexikey/native/$platform/"
  jar_up
  echo "java.sh: $build/lexikey.jar ($profile, $platform), lexikey-sources.jar"
}

# package PLATFORM=LIBRARY...: adds native libraries built on other
# platforms (scripts/java.sh build there) to java/build/lexikey.jar, e.g.
#   scripts/java.sh package macos-aarch64=/tmp/liblexikey_jni.dylib
package() {
  [ -d "$build/classes/lexikey" ] || build
  [ $# -gt 0 ] || { echo "usage: scripts/java.sh package PLATFORM=LIBRARY..." >&2; exit 2; }
  local arg platform file want
  for arg in "$@"; do
    platform=${arg%%=*}
    file=${arg#*=}
    if [ "$platform" = "$arg" ] || ! [[ $platform =~ ^[a-z0-9]+-[a-z0-9_]+$ ]]; then
      echo "java.sh package: '$arg' is not PLATFORM=LIBRARY (PLATFORM like macos-aarch64)" >&2
      exit 2
    fi
    want=$(library_name "$platform")
    if [ "$(basename "$file")" != "$want" ]; then
      echo "java.sh package: a library for $platform is named $want, not $(basename "$file")" >&2
      exit 2
    fi
    [ -f "$file" ] || { echo "java.sh package: no file $file" >&2; exit 2; }
    mkdir -p "$build/classes/lexikey/native/$platform"
    cp "$file" "$build/classes/lexikey/native/$platform/$want"
  done
  jar_up
  echo "java.sh: $build/lexikey.jar carries $(tr '\n' ' ' <"$build/classes/lexikey/native/platforms.txt")"
}

doc() {
  rm -rf "$build/javadoc"
  javadoc -quiet -Xdoclint:all -Werror --release 17 -encoding UTF-8 -docencoding UTF-8 -charset UTF-8 -d "$build/javadoc" \
    -sourcepath java/src/main/java lexikey
  rm -f "$build/lexikey-javadoc.jar"
  jar --create --file "$build/lexikey-javadoc.jar" -C "$build/javadoc" .
  echo "java.sh: Javadoc in $build/javadoc (doclint clean)"
}

cli() {
  # The command line the tests compare with: the test profile's, as
  # `cargo test --workspace` builds it (built here if missing).
  local cli=$target/debug/lexikey
  if [ ! -x "$cli" ]; then
    lexikey_build --quiet
  fi
  echo "$cli"
}

compile_tests() {
  [ -f "$build/lexikey.jar" ] || build
  rm -rf "$build/test-classes"
  mkdir -p "$build/test-classes"
  javac --release 17 -encoding UTF-8 -Xlint:all,-processing -Werror -d "$build/test-classes" \
    -cp "$build/lexikey.jar:$test_cp" java/src/test/java/lexikey/*.java
}

run_tests() {
  compile_tests
  local cli
  cli=$(cli)
  java -Dlexikey.cli="$cli" -Dlexikey.root="$root" -Dlexikey.jar="$build/lexikey.jar" \
    -Dlexikey.classpath="$build/lexikey.jar:$build/test-classes:$test_cp" \
    -Dlexikey.spark.rows="${LEXIKEY_SPARK_ROWS:-$(spark_rows)}" \
    -jar "$jars/junit-platform-console-standalone.jar" \
    --class-path "$build/lexikey.jar:$build/test-classes:$test_cp" \
    --disable-banner --details=summary --fail-if-no-tests \
    --select-package lexikey "$@"
}

# Rows of the Spark test: 1,000,000 at LEXIKEY_TEST_SIZE=full, 50,000 at ci.
spark_rows() {
  if [ "$LEXIKEY_TEST_SIZE" = full ]; then echo 1000000; else echo 50000; fi
}

spark() {
  local rows=${1:-1000000} mode=${2:-partitions}
  local venv=${LEXIKEY_PY_VENV:-$root/target/pyvenv}
  local home
  home=$("$venv/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
  [ -f "$build/lexikey.jar" ] || build
  mkdir -p "$build/spark-classes"
  javac --release 17 -encoding UTF-8 -Xlint:all,-processing,-classfile,-path -Werror -d "$build/spark-classes" \
    -cp "$build/lexikey.jar:$home/jars/*" java/examples/SparkBulkKeys.java
  jar --create --file "$build/spark-bulk-keys.jar" -C "$build/spark-classes" .
  local out
  out=$(mktemp -d)
  bounded 900 "spark-submit (lexikey.examples.SparkBulkKeys, $rows rows, $mode)" \
    env SPARK_HOME="$home" SPARK_LOCAL_IP=127.0.0.1 "$home/bin/spark-submit" --master 'local[2]' --conf spark.ui.enabled=false \
    --driver-java-options "-Dlog4j2.level=warn" --jars "$build/lexikey.jar" \
    --class lexikey.examples.SparkBulkKeys "$build/spark-bulk-keys.jar" "$rows" "$out/keys" "$mode" 2>"$out/stderr" \
    || { tail -40 "$out/stderr" >&2; exit 1; }
  echo "$out/keys"
}

bench() {
  LEXIKEY_JAVA_PROFILE=release build
  compile_tests
  java -Xms2g -Xmx2g -cp "$build/lexikey.jar:$build/test-classes:$test_cp" lexikey.Bench "$@"
}

case "${1:-}" in
  setup) setup ;;
  build) build ;;
  package)
    shift
    package "$@"
    ;;
  doc) doc ;;
  test)
    shift
    run_tests "$@"
    ;;
  spark)
    shift
    spark "$@"
    ;;
  bench)
    shift
    bench "$@"
    ;;
  *)
    echo "usage: scripts/java.sh setup | build | package PLATFORM=LIBRARY... | doc | test [ARGS] | spark [ROWS] [MODE] | bench" >&2
    exit 2
    ;;
esac
