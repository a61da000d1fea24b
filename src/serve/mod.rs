//! `meeple serve`: the playtest table in the browser. The game lives in the server; each seat
//! plays from its own private link, onlookers from another, and every page is drawn from the
//! engine's view of whoever holds the link (`engine::Picture`), never from the state.
//!
//! `table.rs` keeps the game, its keys, bots and saves; `page.rs` draws a viewer's page;
//! `routes.rs` answers HTTP (axum on tokio); `limits.rs` bounds what a key may ask;
//! `token.rs` makes the keys.

mod limits;
pub mod page;
mod routes;
pub mod table;
pub mod token;

pub use limits::Bounds;
pub use routes::{router, MAX_BODY};
pub use table::{Refusal, Step, StepRefusal, Table, TableConfig, Who};

use std::net::SocketAddr;
use std::sync::Arc;

/// A running table: its HTTP server and its bots, until dropped.
pub struct Server {
    addr: SocketAddr,
    table: Arc<Table>,
    runtime: Option<tokio::runtime::Runtime>,
    bots: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// Serves `table` at `addr` (port 0: any free port) and starts its bots.
    pub fn start(table: Arc<Table>, addr: SocketAddr) -> std::io::Result<Server> {
        Server::start_bounded(table, addr, Bounds::default())
    }

    /// [`Server::start`] with each key held to `bounds`.
    pub fn start_bounded(
        table: Arc<Table>,
        addr: SocketAddr,
        bounds: Bounds,
    ) -> std::io::Result<Server> {
        let listener = std::net::TcpListener::bind(addr)?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .thread_name("meeple-serve")
            .build()?;
        let app = router(table.clone(), bounds);
        let listener = {
            let _entered = runtime.enter();
            tokio::net::TcpListener::from_std(listener)?
        };
        runtime.spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        let for_bots = table.clone();
        let bots = std::thread::Builder::new()
            .name("meeple-bots".into())
            .spawn(move || for_bots.run_bots())?;
        Ok(Server {
            addr,
            table,
            runtime: Some(runtime),
            bots: Some(bots),
        })
    }

    /// Where the server listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The table served.
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    /// The link of `who`: its key in a path of this server.
    pub fn link(&self, who: Who) -> String {
        format!(
            "http://{}/t/{}",
            self.addr,
            self.table.token_of(who).as_str()
        )
    }

    /// Blocks until the process is stopped.
    pub fn wait(mut self) {
        if let Some(bots) = self.bots.take() {
            let _ = bots.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.table.close();
        if let Some(runtime) = self.runtime.take() {
            // Open event streams never end by themselves: the tasks are dropped, not awaited.
            runtime.shutdown_background();
        }
        if let Some(bots) = self.bots.take() {
            let _ = bots.join();
        }
    }
}
