//! The linker flags of a Node-API addon (on macOS, symbols resolved by the
//! node process that loads it).

fn main() {
    napi_build::setup();
}
