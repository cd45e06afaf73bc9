//! `lexikey completions SHELL` (clap_complete) and `lexikey man [COMMAND]`
//! (clap_mangen): both generated from the clap definitions in
//! [`crate::args`], so they offer exactly the subcommands and options the
//! parser accepts.

use anyhow::{bail, Result};
use clap::CommandFactory;

use crate::args::{Cli, CompletionsArgs, ManArgs};
use crate::Io;

/// Help text of `completions`.
pub const USAGE: &str = "\
Usage:
  lexikey completions bash|zsh|fish|powershell|elvish

Prints the completion script of the shell: subcommands, options and the values of
--format, --for, --salt-mode and --curve. Install it where the shell looks, e.g.
  lexikey completions bash > ~/.local/share/bash-completion/completions/lexikey
  lexikey completions zsh > ~/.zfunc/_lexikey      (with fpath+=~/.zfunc in ~/.zshrc)
  lexikey completions fish > ~/.config/fish/completions/lexikey.fish
";

/// Help text of `man`.
pub const MAN_USAGE: &str = "\
Usage:
  lexikey man [COMMAND]

Prints the man page (roff) of lexikey, or of one subcommand (lexikey-encode(1) ...),
e.g.
  lexikey man > ~/.local/share/man/man1/lexikey.1 && man lexikey
  lexikey man encode > ~/.local/share/man/man1/lexikey-encode.1
";

/// Runs `lexikey completions`.
///
/// # Errors
/// No shell or more than one; a write error.
pub fn run(args: &CompletionsArgs, io: &mut Io<'_>) -> Result<()> {
    let shell = match args.shell.as_slice() {
        [s] => *s,
        [] => bail!("missing SHELL: expected bash, zsh, fish, powershell or elvish"),
        _ => bail!(
            "completions takes exactly one SHELL, got {}",
            args.shell.len()
        ),
    };
    let mut cmd = Cli::command();
    clap_complete::generate(shell, &mut cmd, "lexikey", io.stdout);
    Ok(())
}

/// Runs `lexikey man`.
///
/// # Errors
/// More than one command; a write error.
pub fn man(args: &ManArgs, io: &mut Io<'_>) -> Result<()> {
    let version = crate::version();
    let mut cmd = Cli::command().version(
        version
            .trim_end()
            .trim_start_matches("lexikey ")
            .to_string(),
    );
    cmd.build();
    let page = match args.command.as_slice() {
        [] => cmd,
        [name] => {
            let Some(sub) = cmd.find_subcommand(name) else {
                return Err(crate::args::unknown_command(name));
            };
            sub.clone().name(format!("lexikey-{name}"))
        }
        _ => bail!("man takes at most one COMMAND, got {}", args.command.len()),
    };
    clap_mangen::Man::new(page).render(io.stdout)?;
    Ok(())
}
