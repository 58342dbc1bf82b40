//! The recent pace of a request body: bytes counted per slice of time over a sliding window,
//! so that shedding judges what a body sends now, not its average since the head (a body
//! that sent 1.9 MB at once and then a byte a second would otherwise look fast for a minute).

/// Slices a window is cut into: the window slides by an eighth at a time.
const SLICES: usize = 8;

/// Bytes received in each of the last [`SLICES`] slices of `slice_ms` milliseconds.
#[derive(Debug)]
pub(super) struct Window {
    slice_ms: u64,
    counts: [u64; SLICES],
    /// The number (time / `slice_ms`) of the latest slice written.
    latest: u64,
}

impl Window {
    /// A window of about `window_ms` milliseconds (at least [`SLICES`]).
    pub fn new(window_ms: u64) -> Self {
        Window { slice_ms: (window_ms / SLICES as u64).max(1), counts: [0; SLICES], latest: 0 }
    }

    /// Starts over: nothing received, at `now_ms`.
    pub fn reset(&mut self, now_ms: u64) {
        self.counts = [0; SLICES];
        self.latest = now_ms / self.slice_ms;
    }

    /// Counts `bytes` received at `now_ms`.
    pub fn record(&mut self, now_ms: u64, bytes: u64) {
        let slice = now_ms / self.slice_ms;
        if slice > self.latest {
            // The slices between the latest written and this one received nothing.
            let stale = (slice - self.latest).min(SLICES as u64);
            for gone in 1..=stale {
                self.counts[((self.latest + gone) % SLICES as u64) as usize] = 0;
            }
            self.latest = slice;
        }
        self.counts[(slice % SLICES as u64) as usize] += bytes;
    }

    /// Bytes a second received over the window ending at `now_ms`, or over the time since
    /// `since_ms` when the body is younger than the window. `None` before any time passed.
    pub fn pace(&self, now_ms: u64, since_ms: u64) -> Option<u64> {
        let slice = now_ms / self.slice_ms;
        let oldest = (slice + 1).saturating_sub(SLICES as u64);
        let bytes: u64 =
            (oldest..=self.latest.min(slice)).map(|kept| self.counts[(kept % SLICES as u64) as usize]).sum();
        let spanned = now_ms - oldest * self.slice_ms;
        let span = spanned.min(now_ms.saturating_sub(since_ms));
        (span > 0).then(|| bytes.saturating_mul(1000) / span)
    }
}

#[cfg(test)]
mod tests {
    use super::Window;

    #[test]
    fn a_burst_then_silence_falls_to_nothing_once_the_window_has_passed() {
        let mut window = Window::new(1000);
        window.reset(0);
        window.record(10, 1_900_000);
        assert!(window.pace(500, 0).unwrap() > 1_000_000);
        window.record(1500, 1);
        assert_eq!(window.pace(2000, 0), Some(1));
        assert_eq!(window.pace(9000, 0), Some(0));
    }

    #[test]
    fn a_steady_pace_reads_as_itself() {
        let mut window = Window::new(1000);
        window.reset(0);
        for tick in 1..=50 {
            window.record(tick * 100, 4096);
        }
        let pace = window.pace(5050, 0).unwrap();
        assert!((36_000..=46_000).contains(&pace), "{pace}");
    }
}
