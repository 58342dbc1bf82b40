//! Work spread over the machine's threads: the few places where apigen's time goes (parsing
//! spec files, printing generated files) are lists of independent items.

use std::sync::Mutex;

/// `f` applied to every item, on as many threads as the machine has (at most one per item),
/// results in the items' order, so nothing depends on which thread finished first. A panic in
/// `f` is re-raised on the calling thread, as without threads.
pub fn map<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len());
    if threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let count = items.len();
    let queue = Mutex::new(items.into_iter().enumerate());
    let next = || queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner).next();
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut results = Vec::new();
                    while let Some((index, item)) = next() {
                        results.push((index, f(item)));
                    }
                    results
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    debug_assert_eq!(done.len(), count);
    done.sort_unstable_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_order_of_the_items() {
        let items: Vec<u64> = (0..500).collect();
        let squares = super::map(items, |n| {
            // Uneven work, so threads finish out of order.
            std::thread::sleep(std::time::Duration::from_micros((n % 7) * 10));
            n * n
        });
        assert_eq!(squares, (0..500).map(|n| n * n).collect::<Vec<_>>());
    }

    #[test]
    fn no_items_no_threads() {
        assert!(super::map(Vec::<u8>::new(), |n| n).is_empty());
    }
}
