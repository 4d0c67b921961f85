//! Who is connected: a player's streams opening and closing, which is how a disconnection
//! (003 §6.1) begins and ends.

impl super::Actor {
    /// A live stream opened or closed. A player's last stream closing during play or scoring
    /// is a disconnection (003 §6.1); the first one opening again ends it.
    pub(super) async fn presence(&mut self, user_id: Option<i64>, connected: bool, from: Option<String>) {
        let now = self.clock.now_ms();
        let Some((uid, before, after)) = self.count_presence(user_id, connected, from) else { return };
        // Only a player's first stream opening or last stream closing matters.
        if (before == 0) == (after == 0) {
            return;
        }
        // One device holds both seats: its connection is both colours'.
        let colours: Vec<_> = self.state.seats_of(uid).filter_map(|s| self.state.colour_of_seat(s)).collect();
        for colour in colours {
            let events = self.state.presence(colour, after > 0, now);
            let _ = self.commit(events, Some(uid), now).await;
        }
    }

    /// Counts a live stream opening or closing; for a signed-in viewer, their account and
    /// their streams before and after. A close told by an instance that has no open stream
    /// on record (told before it was counted gone) changes nothing.
    pub(super) fn count_presence(
        &mut self,
        user_id: Option<i64>,
        connected: bool,
        from: Option<String>,
    ) -> Option<(i64, usize, usize)> {
        if let (Some(instance), Some(uid)) = (from, user_id) {
            let key = (instance, uid);
            let told = self.forwarded.get(&key).copied().unwrap_or(0);
            match (connected, told) {
                (false, 0) => return None,
                (false, 1) => {
                    self.forwarded.remove(&key);
                }
                (false, n) => {
                    self.forwarded.insert(key, n - 1);
                }
                (true, n) => {
                    self.forwarded.insert(key, n + 1);
                }
            }
        }
        self.watchers = if connected { self.watchers + 1 } else { self.watchers.saturating_sub(1) };
        let uid = user_id?;
        let n = self.connections.entry(uid).or_insert(0);
        let before = *n;
        *n = if connected { *n + 1 } else { n.saturating_sub(1) };
        let after = *n;
        if after == 0 {
            self.connections.remove(&uid);
        }
        Some((uid, before, after))
    }
}
