//! The version of the common rules the program ships (003 §1.5: version 1): every numbered
//! clause of both seeds as `docs/rules-v1.md` restates it, read when the database has no
//! version yet. That file is frozen: rooms pin version 1, so its text never changes;
//! `docs/rules.md` is the reference as the program works today.

use super::{Clause, Permits, RulesVersion};

/// Version 1 of the rules reference, compiled in (server only).
const RULES_MD: &str = include_str!("../../../docs/rules-v1.md");

/// The clauses of `md`: each `### 003 §1.4 — Title` (or `000 §…`) heading with the text up
/// to the next heading or rule line, in the document's order.
pub fn clauses(md: &str) -> Vec<Clause> {
    let mut out: Vec<Clause> = Vec::new();
    let mut open = false;
    for line in md.lines() {
        if line.starts_with("## ") || line.starts_with("### ") || line.trim() == "---" {
            open = false;
            let Some(head) = line.strip_prefix("### ") else { continue };
            let Some((id, title)) = head.split_once(" — ") else { continue };
            if is_citation(id) {
                out.push(Clause {
                    id: id.to_string(),
                    title: title.trim().to_string(),
                    text: String::new(),
                    precedents: Vec::new(),
                });
                open = true;
            }
        } else if open {
            if let Some(c) = out.last_mut() {
                c.text.push_str(line);
                c.text.push('\n');
            }
        }
    }
    for c in &mut out {
        c.text = c.text.trim().to_string();
    }
    out
}

/// `003 §1.4`, `000 §5`: a seed number, a section sign and a dotted clause number.
pub fn is_citation(id: &str) -> bool {
    let Some((seed, number)) = id.split_once(" §") else { return false };
    matches!(seed, "003" | "000")
        && !number.is_empty()
        && number.split('.').all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()))
}

/// Version 1: the clauses of `docs/rules-v1.md` and the first permits.
pub fn first_version(now_ms: i64) -> RulesVersion {
    RulesVersion {
        version: 1,
        created_ms: now_ms,
        created_by: None,
        clauses: clauses(RULES_MD),
        permits: Permits::first(),
        precedent: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_clause_of_the_reference_is_read_once_in_order() {
        let v = first_version(0);
        let ids: Vec<&str> = v.clauses.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.first(), Some(&"003 §1.1"));
        assert!(ids.contains(&"003 §1.4") && ids.contains(&"003 §12.8") && ids.contains(&"000 §6.4"), "{ids:?}");
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "each clause once");
        // At least the 83 numbered 003 clauses (1.1–12.8) are there.
        assert!(ids.iter().filter(|i| i.starts_with("003")).count() >= 83, "{}", ids.len());
        let c14 = v.clauses.iter().find(|c| c.id == "003 §1.4").unwrap();
        assert_eq!(c14.title, "Common and special rules");
        assert!(c14.text.starts_with("The common rules come first"), "{}", c14.text);
        assert!(!c14.text.contains("###"), "stops at the next heading");
        // The preamble and the citation appendix are not clauses.
        assert!(!ids.iter().any(|i| i.contains("preamble")));
    }

    #[test]
    fn citations() {
        assert!(is_citation("003 §1.4") && is_citation("000 §5") && is_citation("003 §12.8"));
        for bad in ["003 §", "004 §1.1", "003 §1..2", "003 §1.a", "003 1.4", "§1.4", ""] {
            assert!(!is_citation(bad), "{bad}");
        }
    }
}
