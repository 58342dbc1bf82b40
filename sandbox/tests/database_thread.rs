//! SQLite runs on the store's own thread: an async worker waiting for a transaction keeps
//! serving its other tasks, and a transaction that panics is rolled back and answered 500
//! while the thread goes on.

use docs_api_sandbox::clock::Clock;
use docs_api_sandbox::store::Store;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[tokio::test(flavor = "current_thread")]
async fn a_slow_transaction_leaves_the_only_worker_free_for_other_tasks() {
    let store = Arc::new(Store::open(None, Clock::default()).unwrap());
    let slow = {
        let store = Arc::clone(&store);
        tokio::spawn(async move {
            store
                .write_async(|tx| {
                    std::thread::sleep(Duration::from_millis(300));
                    tx.set_meta("slow", "done")
                })
                .await
        })
    };
    let started = Instant::now();
    let mut turns = 0;
    while !slow.is_finished() {
        tokio::task::yield_now().await;
        turns += 1;
    }
    slow.await.unwrap().unwrap();
    assert!(started.elapsed() >= Duration::from_millis(250));
    // Blocked on SQLite, the one worker thread would have taken a turn or two in 300 ms.
    assert!(turns > 1000, "the worker took {turns} turns while the transaction ran");
    assert_eq!(store.read(|tx| tx.meta("slow")).unwrap().as_deref(), Some("done"));
}

#[tokio::test]
async fn a_transaction_that_panics_is_rolled_back_answered_500_and_the_next_one_runs() {
    let store = Store::open(None, Clock::default()).unwrap();
    let result: Result<(), _> = store
        .write_async(|tx| {
            tx.set_meta("half", "written")?;
            panic!("a bug in a handler");
        })
        .await;
    let error = result.unwrap_err();
    assert_eq!(error.status().as_u16(), 500);
    assert_eq!(error.message(), Some("database: the transaction panicked and was rolled back"));
    assert_eq!(store.read_async(|tx| tx.meta("half")).await.unwrap(), None, "rolled back");
    store.write_async(|tx| tx.set_meta("after", "yes")).await.unwrap();
    assert_eq!(store.read(|tx| tx.meta("after")).unwrap().as_deref(), Some("yes"));
}
