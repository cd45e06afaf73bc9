//! The store features are listed once, in `stores/Cargo.toml`, and every
//! front end takes the same set (see the crate docs, "Cargo features"):
//! this test checks the block of store features in the `[features]` of
//! `cli/`, `python/`, `java/` and `history/` against that list, and that
//! `scripts/lib.sh`'s build (`LEXIKEY_FEATURES`) turns them all on in every
//! front end. `UPDATE_FEATURES=1 cargo test -p lexikey-stores --test
//! features` rewrites the blocks after a change to the list.

use std::path::{Path, PathBuf};

/// The front ends: every crate that depends on lexikey-stores and builds
/// something a user runs.
const FRONT_ENDS: &[&str] = &["cli", "python", "java", "node", "history"];

/// The lines that open and close the block of store features in a front
/// end's `[features]`.
const BEGIN: &str = "# --- store features (generated from stores/Cargo.toml by stores/tests/features.rs; UPDATE_FEATURES=1 rewrites) ---";
const END: &str = "# --- end of store features ---";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A feature of a manifest: its name and what it turns on.
#[derive(Debug)]
struct Feature {
    name: String,
    enables: Vec<String>,
}

/// The features of a manifest's `[features]` table, in order (one feature
/// a line, as the manifests write them).
fn features(manifest: &str) -> Vec<Feature> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[features]";
            continue;
        }
        if !inside || line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, value) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("[features]: not `NAME = [...]`: {line}"));
        let value = value.trim();
        let list = value
            .strip_prefix('[')
            .and_then(|v| v.strip_suffix(']'))
            .unwrap_or_else(|| panic!("[features]: one feature a line, not {line}"));
        let enables = list
            .split(',')
            .map(|s| s.trim().trim_matches('"').to_string())
            .filter(|s| !s.is_empty())
            .collect();
        out.push(Feature {
            name: name.trim().to_string(),
            enables,
        });
    }
    out
}

/// The block every front end's `[features]` holds: each store feature of
/// lexikey-stores but its defaults under the same name (an adapter
/// forwarded, a group of adapters as the same group of the front end's
/// own features), and as default the stores' `default-servers`.
fn expected_block(stores: &[Feature]) -> String {
    let names: Vec<&str> = stores.iter().map(|f| f.name.as_str()).collect();
    let stores_default = stores
        .iter()
        .find(|f| f.name == "default")
        .map_or(&[][..], |f| &f.enables[..]);
    let quoted = |items: &[String]| {
        items
            .iter()
            .map(|s| format!("{s:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut block = vec![
        BEGIN.to_string(),
        "# The same in every front end (cli, python, java, history); the stores crate".to_string(),
        "# lists them and says what each one is (stores/Cargo.toml).".to_string(),
        r#"default = ["default-servers"]"#.to_string(),
    ];
    for f in stores {
        if f.name == "default" || stores_default.contains(&f.name) {
            continue;
        }
        let group = f.enables.iter().all(|e| names.contains(&e.as_str()));
        let enables = if group {
            quoted(&f.enables)
        } else {
            format!("\"lexikey-stores/{}\"", f.name)
        };
        block.push(format!("{} = [{enables}]", f.name));
    }
    block.push(END.to_string());
    block.join("\n")
}

#[test]
fn every_front_end_takes_the_store_features() {
    let root = root();
    let stores = features(&read(&root.join("stores/Cargo.toml")));
    assert!(
        stores.iter().any(|f| f.name == "default-servers"),
        "stores/Cargo.toml names the front ends' default stores in `default-servers`"
    );
    // The adapters of the crate's code are the manifest's (the features
    // that turn on a dependency).
    let mut adapters: Vec<&str> = stores
        .iter()
        .filter(|f| f.enables.iter().any(|e| e.starts_with("dep:")))
        .map(|f| f.name.as_str())
        .collect();
    adapters.sort_unstable();
    let mut listed = lexikey_stores::STORE_FEATURES.to_vec();
    listed.sort_unstable();
    assert_eq!(adapters, listed, "STORE_FEATURES (stores/src/features.rs)");

    let block = expected_block(&stores);
    let update = std::env::var_os("UPDATE_FEATURES").is_some();
    let mut stale = Vec::new();
    for front in FRONT_ENDS {
        let path = root.join(front).join("Cargo.toml");
        let text = read(&path);
        let (Some(begin), Some(end)) = (text.find(BEGIN), text.find(END)) else {
            panic!("{}: no block of store features ({BEGIN})", path.display());
        };
        let found = &text[begin..end + END.len()];
        if found == block {
            continue;
        }
        if update {
            let new = format!("{}{block}{}", &text[..begin], &text[end + END.len()..]);
            std::fs::write(&path, new).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        } else {
            stale.push(format!("{front}/Cargo.toml"));
        }
    }
    assert!(
        stale.is_empty(),
        "the store features of {} differ from stores/Cargo.toml's \
         (UPDATE_FEATURES=1 cargo test -p lexikey-stores --test features rewrites them); \
         expected:\n{block}",
        stale.join(", ")
    );

    // The CI build (scripts/lib.sh) turns every store on in every front
    // end, with one feature list, so lexikey-stores is compiled once.
    let lib = read(&root.join("scripts/lib.sh"));
    let list = lib
        .lines()
        .find_map(|l| l.strip_prefix("export LEXIKEY_FEATURES=\""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("scripts/lib.sh exports LEXIKEY_FEATURES");
    let on: Vec<&str> = list.split(',').collect();
    for crate_name in [
        "lexikey-stores",
        "lexikey-cli",
        "lexikey-python",
        "lexikey-java",
        "lexikey-node",
        "lexikey-history",
    ] {
        let all = format!("{crate_name}/all-servers");
        assert!(on.contains(&all.as_str()), "LEXIKEY_FEATURES lacks {all}");
    }
}

#[test]
fn the_expected_block_forwards_adapters_and_groups() {
    let stores = features(
        "[package]\nname = \"x\"\n[features]\ndefault = [\"redb\"]\n## doc\nredb = [\"dep:redb\"]\n\
         redis = [\"dep:redis\", \"redis/tls\"]\nall-servers = [\"redis\"]\n\
         default-servers = [\"redis\"]\n[dependencies]\nredb = \"1\"\n",
    );
    let block = expected_block(&stores);
    let lines: Vec<&str> = block.lines().collect();
    assert_eq!(
        lines[3..],
        [
            r#"default = ["default-servers"]"#,
            r#"redis = ["lexikey-stores/redis"]"#,
            r#"all-servers = ["redis"]"#,
            r#"default-servers = ["redis"]"#,
            END,
        ]
    );
}
