//! `lexikey completions SHELL` (clap_complete) and `lexikey man [COMMAND]`
//! (clap_mangen): both generated from the clap definitions in
//! [`crate::args`], so they offer exactly the subcommands and options the
//! parser accepts.

use anyhow::{bail, Result};
use clap::CommandFactory;

use crate::args::{Cli, CompletionsArgs, ManArgs};
use crate::Io;

/// Runs `lexikey completions`.
///
/// # Errors
/// No shell or more than one; a write error.
pub(crate) fn run(args: &CompletionsArgs, io: &mut Io<'_>) -> Result<()> {
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
pub(crate) fn man(args: &ManArgs, io: &mut Io<'_>) -> Result<()> {
    let version = crate::version();
    let mut cmd = Cli::command().version(
        version
            .trim_end()
            .trim_start_matches("lexikey ")
            .to_string(),
    );
    cmd.build();
    let page = match args.command.as_slice() {
        [] => {
            let extra = format!("{}\n\n{}", crate::args::COMPONENTS, crate::args::EXAMPLES);
            cmd.after_long_help(extra)
        }
        [name] => {
            let Some(sub) = cmd.find_subcommand(name) else {
                return Err(crate::args::unknown_command(name));
            };
            // The page holds the command's whole help (its options, formats and
            // examples) and the component syntax.
            let help = crate::args::usage(name).unwrap_or_default();
            sub.clone()
                .name(format!("lexikey-{name}"))
                .after_long_help(format!("{help}\n{}", crate::args::COMPONENTS))
        }
        _ => bail!("man takes at most one COMMAND, got {}", args.command.len()),
    };
    clap_mangen::Man::new(page).render(io.stdout)?;
    Ok(())
}
