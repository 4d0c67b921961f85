//! Level 2 (003 §11.4): Monte-Carlo tree search with the evaluator as prior.
