//! `lexikey-history`: the recorder's and the checker's commands (run by
//! `scripts/history.sh`; see the `lexikey_history` crate docs for the
//! history format and the rules).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use lexikey_history::record::{self, Table};
use lexikey_history::{check, clock, history, History};

const USAGE: &str = "\
Usage:
  lexikey-history client --store URL --table NAME --client C [--threads K] --seconds S
                         --log FILE [--guard] [--salt-buckets N] [--max-attempts N (64)]
                         [--pause-ms MS] [--broken] [--delete-log FILE2 [--interval-ms MS]]
      clients C..C+K-1 (one thread each, default K=1) allocate for S seconds, each
      pausing MS ms after each call (default 0); each
      call is logged to FILE (an invoke line before it, its alloc line after); with
      --delete-log, a deleter thread too (as `deleter`, default every 200 ms);
      --salt-buckets N: the table's rows spread over N salt buckets (1 to 255)
  lexikey-history deleter --store URL --table NAME --seconds S --log FILE
                          [--interval-ms MS] [--guard] [--salt-buckets N]
      deletes the newest row every MS milliseconds (default 100), logging each delete
  lexikey-history read --store URL --table NAME [--guard] [--salt-buckets N]
      prints one read line per row of the table
  lexikey-history merge FILE... --out HISTORY
      merges logs into one history (an invoke without its alloc line becomes info)
  lexikey-history check HISTORY [--svg FILE] [--label TEXT]
      checks a history; prints the counts and every violation with its lines; the
      last line is 'history: TEXT: N ops (ok X, fail Y, info Z), V violations';
      exit 1 on any violation, 2 on a bad history
  lexikey-history now
      prints CLOCK_MONOTONIC in nanoseconds
  lexikey-history fault --log FILE --fault KIND --target TEXT --start NS
      appends a fault line from NS to now
";

/// `--name value` options and positionals.
struct Args {
    opts: Vec<(String, Option<String>)>,
    positionals: Vec<String>,
}

const FLAGS: &[&str] = &["guard", "broken"];

impl Args {
    fn parse(args: &[String]) -> Result<Args> {
        let mut a = Args {
            opts: Vec::new(),
            positionals: Vec::new(),
        };
        let mut it = args.iter();
        while let Some(x) = it.next() {
            if let Some(name) = x.strip_prefix("--") {
                if FLAGS.contains(&name) {
                    a.opts.push((name.into(), None));
                } else {
                    let v = it.next().ok_or_else(|| anyhow!("--{name} needs a value"))?;
                    a.opts.push((name.into(), Some(v.clone())));
                }
            } else {
                a.positionals.push(x.clone());
            }
        }
        Ok(a)
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.opts
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    fn need(&self, name: &str) -> Result<&str> {
        self.get(name).ok_or_else(|| anyhow!("missing --{name}"))
    }

    fn flag(&self, name: &str) -> bool {
        self.opts.iter().any(|(n, _)| n == name)
    }

    fn num<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| anyhow!("invalid --{name} {v:?}: expected a number")),
        }
    }

    fn check_known(&self, known: &[&str]) -> Result<()> {
        for (n, _) in &self.opts {
            if !known.contains(&n.as_str()) {
                bail!("unknown option --{n}");
            }
        }
        Ok(())
    }

    fn table(&self) -> Result<Table> {
        Ok(Table {
            url: self.need("store")?.to_string(),
            name: self.need("table")?.to_string(),
            guard: self.flag("guard"),
            salt_buckets: self.num("salt-buckets", 0)?,
            max_attempts: self.num("max-attempts", 64)?,
            broken: self.flag("broken"),
        })
    }
}

fn run(argv: &[String]) -> Result<ExitCode> {
    let Some((cmd, rest)) = argv.split_first() else {
        bail!("missing command\n{USAGE}");
    };
    let a = Args::parse(rest)?;
    match cmd.as_str() {
        "client" => {
            a.check_known(&[
                "store",
                "table",
                "client",
                "threads",
                "seconds",
                "log",
                "guard",
                "salt-buckets",
                "max-attempts",
                "broken",
                "delete-log",
                "interval-ms",
                "pause-ms",
            ])?;
            let delete_log = a.get("delete-log").map(PathBuf::from);
            let c = record::run_clients(
                &a.table()?,
                a.num("client", 0)?,
                a.num("threads", 1)?,
                a.num("seconds", 10.0)?,
                &PathBuf::from(a.need("log")?),
                Duration::from_millis(a.num("pause-ms", 0)?),
                delete_log.as_deref().map(|p| {
                    (
                        Duration::from_millis(a.num("interval-ms", 200).unwrap_or(200)),
                        p,
                    )
                }),
            )?;
            eprintln!(
                "lexikey-history client: ok {}, fail {}, info {}",
                c.ok, c.fail, c.info
            );
        }
        "deleter" => {
            a.check_known(&[
                "store",
                "table",
                "seconds",
                "log",
                "interval-ms",
                "guard",
                "salt-buckets",
            ])?;
            let n = record::run_deleter(
                &a.table()?,
                a.num("seconds", 10.0)?,
                Duration::from_millis(a.num("interval-ms", 100)?),
                &PathBuf::from(a.need("log")?),
            )?;
            eprintln!("lexikey-history deleter: {n} rows deleted");
        }
        "read" => {
            a.check_known(&["store", "table", "guard", "salt-buckets"])?;
            let lines = record::read_table(&a.table()?, Duration::from_secs(60))?;
            let mut out = String::new();
            for l in lines {
                out.push_str(&l);
                out.push('\n');
            }
            print!("{out}");
        }
        "merge" => {
            a.check_known(&["out"])?;
            let files: Vec<PathBuf> = a.positionals.iter().map(PathBuf::from).collect();
            let h = record::merge(&files)?;
            let out = a.need("out")?;
            std::fs::write(out, h.render()).with_context(|| format!("cannot write {out}"))?;
        }
        "check" => {
            a.check_known(&["svg", "label"])?;
            let [path] = a.positionals.as_slice() else {
                bail!("check takes one HISTORY file");
            };
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
            let h = History::parse(&text).with_context(|| format!("bad history {path}"))?;
            let r = check::check(&h);
            print!("{}", check::describe(&h, &r));
            let label = a.get("label").unwrap_or(path);
            if let Some(svg) = a.get("svg") {
                let doc = lexikey_history::svg::render(&h, &r, label).map_err(|e| anyhow!(e))?;
                std::fs::write(svg, doc).with_context(|| format!("cannot write {svg}"))?;
            }
            println!("history: {label}: {}", r.summary());
            if !r.violations.is_empty() {
                return Ok(ExitCode::from(1));
            }
        }
        "now" => println!("{}", clock::now_ns()),
        "fault" => {
            a.check_known(&["log", "fault", "target", "start"])?;
            let f = history::Fault {
                line: 0,
                fault: a.need("fault")?.to_string(),
                target: a.need("target")?.to_string(),
                start_ns: a.num("start", 0)?,
                end_ns: clock::now_ns(),
            };
            record::Log::append(&PathBuf::from(a.need("log")?))?
                .line(&history::render_fault(&f))?;
        }
        "help" | "--help" | "-h" => print!("{USAGE}"),
        other => bail!("unknown command {other:?}\n{USAGE}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match run(&argv) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("lexikey-history: {e:#}");
            ExitCode::from(2)
        }
    }
}
