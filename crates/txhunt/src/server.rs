//! `txhunt server`: start a private DBMS server, print how to connect, serve until Ctrl-C.

use crate::interrupt;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use txhunt_db::testbed::{Server, ServerKind};

/// Arguments of `txhunt server`.
#[derive(Args)]
pub struct ServerArgs {
    /// Which DBMS to start.
    dbms: Dbms,
    /// Where its binaries are (default: the installed ones).
    #[arg(long)]
    bin_dir: Option<PathBuf>,
    /// The port to listen on (default: a free one).
    #[arg(long)]
    port: Option<u16>,
}

/// DBMSs the testbed can start.
#[derive(Clone, Copy, ValueEnum)]
enum Dbms {
    Mariadb,
    Postgres,
}

/// Starts the server and waits for Ctrl-C; the server and its files are gone afterwards.
pub fn serve(args: &ServerArgs) -> anyhow::Result<bool> {
    let kind = match args.dbms {
        Dbms::Mariadb => ServerKind::Mariadb,
        Dbms::Postgres => ServerKind::Postgres,
    };
    interrupt::make_graceful();
    let server = Server::start(kind, args.bin_dir.as_deref(), args.port)?;
    println!("{}", server.url());
    let port = server.port();
    match kind {
        ServerKind::Mariadb => eprintln!("connect: mariadb -h 127.0.0.1 -P {port} -u root"),
        ServerKind::Postgres => eprintln!("connect: psql -h 127.0.0.1 -p {port} -U postgres"),
    }
    eprintln!(
        "use it as: txhunt run --target {} FILE…   (Ctrl-C stops the server and deletes its data)",
        server.url()
    );
    interrupt::wait();
    eprintln!("stopping {}…", kind.name());
    drop(server);
    Ok(true)
}
