//! Level 1 (003 §11.4): the best move by the weighted features, seeded tie-breaking.
