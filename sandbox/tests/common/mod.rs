//! What every scenario test shares: a sandbox on a loopback port (in-memory database,
//! bootstrapped), a generated client holding the admin's token, and the clock.
#![allow(dead_code)] // each test file uses a part

use docs_api_client::{Client, Error, RetryPolicy};
use docs_api_sandbox::{Bootstrap, Sandbox, clock::Clock, store::Store};

/// A running sandbox.
pub struct Running {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The first organization, its admin and the admin's token.
    pub boot: Bootstrap,
    /// A client authenticated as the admin.
    pub client: Client,
    /// The sandbox (its store, for what no operation shows).
    pub sandbox: Sandbox,
}

impl Running {
    /// The clock the sandbox reads (tests move it forward).
    pub fn clock(&self) -> &Clock {
        self.sandbox.store().clock()
    }

    /// A client authenticated with another token.
    pub fn client_with(&self, token: &str) -> Client {
        Client::builder(self.base.clone()).bearer(token).retry(RetryPolicy::none()).build().unwrap()
    }

    /// A new user who is a member of the first organization with `role` (`None`: guest),
    /// and a client with their token.
    pub fn member(&self, name: &str, role: Option<&str>) -> (String, Client) {
        let org = self.boot.organization.clone();
        let token = format!("token-{name}");
        let user = self
            .sandbox
            .store()
            .write(|tx| {
                let id = tx.new_id("user")?;
                let user = serde_json::json!({"object": "user", "id": id, "displayName": name, "email": format!("{name}@example.com")});
                docs_api_sandbox::api::members::add_member(tx, &org, &user, role)?;
                tx.add_token(&token, &id)?;
                Ok(id)
            })
            .unwrap();
        (user, self.client_with(&token))
    }
}

/// Starts a sandbox over an in-memory database.
pub async fn start() -> Running {
    start_with(Store::open(None, Clock::default()).unwrap()).await
}

/// Starts a sandbox over `store`.
pub async fn start_with(store: Store) -> Running {
    let sandbox = Sandbox::new(store);
    let boot = sandbox.bootstrap(Some("admin-token")).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = sandbox.app();
    tokio::spawn(async move { apigen_runtime::listener::serve(listener, app, Default::default()).await });
    let client = Client::builder(base.clone()).bearer(boot.token.clone()).retry(RetryPolicy::none()).build().unwrap();
    Running { base, boot, client, sandbox }
}

/// The status of a failed call (panics on success, naming it).
pub fn status<T: std::fmt::Debug>(result: Result<T, Error>) -> u16 {
    match result {
        Err(Error::Api { status, .. }) => status,
        other => panic!("expected an API error, got {other:?}"),
    }
}

/// The status and message of a failed call.
pub fn failure<T: std::fmt::Debug>(result: Result<T, Error>) -> (u16, String) {
    match result {
        Err(Error::Api { status, message, .. }) => (status, message),
        other => panic!("expected an API error, got {other:?}"),
    }
}

impl Running {
    /// A space of the first organization, written straight to the store (for tests of
    /// content, sites and comments that need a space and are not about creating one).
    pub fn seed_space(&self, title: &str) -> String {
        let org = self.boot.organization.clone();
        self.sandbox
            .store()
            .write(|tx| {
                let id = docs_api_sandbox::api::spaces::create_space(tx, &org, None, title)?;
                Ok(id)
            })
            .unwrap()
    }
}
