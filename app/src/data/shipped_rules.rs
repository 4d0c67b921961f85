//! The versions of the common rules the program ships (003 §1.5): every numbered clause of
//! both seeds as the rules reference restates it. Version 1 is `docs/rules-v1.md`, frozen
//! word for word; `docs/rules.md` is the reference as the program works today and ships as
//! the version after it. Rooms pin a version, so a shipped text never changes: a revision is
//! a new file here, stored once as the next version at the first start that lacks it.

use wire::governance::{Clause, Permits, RulesVersion};

/// The rules reference's shipped texts, oldest first (server only).
const SHIPPED: [&str; 2] = [include_str!("../../../docs/rules-v1.md"), include_str!("../../../docs/rules.md")];

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

/// The clauses of each shipped text, oldest first, read as they are taken (a start that
/// finds them all stored reads none).
pub fn shipped() -> impl ExactSizeIterator<Item = Vec<Clause>> {
    SHIPPED.iter().map(|md| clauses(md))
}

/// A shipped text stored as the version after `latest` (`None`: the database has none yet,
/// so it is version 1 with the first permits). What precedent added to the rules stays: each
/// clause keeps the precedents `latest` holds under its id, and the permits are `latest`'s.
pub fn next_shipped(latest: Option<&RulesVersion>, mut clauses: Vec<Clause>, now_ms: i64) -> RulesVersion {
    let Some(latest) = latest else {
        return RulesVersion {
            version: 1,
            created_ms: now_ms,
            created_by: None,
            clauses,
            permits: Permits::first(),
            precedent: None,
        };
    };
    for c in &mut clauses {
        if let Some(before) = latest.clauses.iter().find(|b| b.id == c.id) {
            c.precedents = before.precedents.clone();
        }
    }
    RulesVersion {
        version: latest.version + 1,
        created_ms: now_ms,
        created_by: None,
        clauses,
        permits: latest.permits.clone(),
        precedent: None,
    }
}

/// `latest` with an administrator's precedent under 003 §3.6 and narrower permits, as the
/// next version (tests).
#[cfg(test)]
pub(crate) fn with_a_precedent(latest: &RulesVersion) -> (RulesVersion, wire::governance::Precedent) {
    let precedent = wire::governance::Precedent {
        clause: "003 §3.6".into(),
        text: "A seki is ruled as such.".into(),
        reasons: "ruled in room 7".into(),
        ruling: None,
        version: latest.version + 1,
        at_ms: 20,
        by: "referee".into(),
    };
    let mut next = latest.clone();
    next.version = precedent.version;
    next.created_by = Some(precedent.by.clone());
    next.clauses.iter_mut().filter(|c| c.id == precedent.clause).for_each(|c| c.precedents.push(precedent.clone()));
    next.permits.kinds.truncate(1);
    next.precedent = Some(precedent.clone());
    (next, precedent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wire::governance::Precedent;

    #[test]
    fn every_clause_of_each_shipped_text_is_read_once_in_order() {
        let editions: Vec<Vec<Clause>> = shipped().collect();
        assert_eq!(editions.len(), 2);
        for (n, clauses) in editions.iter().enumerate() {
            let ids: Vec<&str> = clauses.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(ids.first(), Some(&"003 §1.1"), "text {n}");
            assert!(ids.contains(&"003 §1.4") && ids.contains(&"003 §12.8") && ids.contains(&"000 §6.4"), "{ids:?}");
            let mut unique = ids.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), ids.len(), "each clause once in text {n}");
            // At least the 83 numbered 003 clauses (1.1–12.8) are there.
            assert!(ids.iter().filter(|i| i.starts_with("003")).count() >= 83, "{}", ids.len());
            let c14 = clauses.iter().find(|c| c.id == "003 §1.4").unwrap();
            assert_eq!(c14.title, "Common and special rules");
            assert!(c14.text.starts_with("The common rules come first"), "{}", c14.text);
            assert!(!c14.text.contains("###"), "stops at the next heading");
            // The preamble and the citation appendix are not clauses.
            assert!(!ids.iter().any(|i| i.contains("preamble")));
        }
        // A revision restates the same clauses: precedents carry over by clause id.
        let ids = |v: &Vec<Clause>| v.iter().map(|c| (c.id.clone(), c.title.clone())).collect::<Vec<_>>();
        assert_eq!(ids(&editions[0]), ids(&editions[1]));
        assert_ne!(editions[0], editions[1], "the revision changed the texts");
    }

    #[test]
    fn a_shipped_text_follows_the_latest_version_keeping_its_precedents_and_permits() {
        let mut editions = shipped();
        let first = next_shipped(None, editions.next().unwrap(), 10);
        assert_eq!((first.version, first.created_by.as_deref(), &first.precedent), (1, None, &None));
        assert_eq!(first.permits, Permits::first());
        let (latest, precedent) = with_a_precedent(&first);
        assert_ne!(latest.permits, first.permits, "the precedent's version narrowed the permits");
        let revision = editions.next().unwrap();
        let next = next_shipped(Some(&latest), revision.clone(), 30);
        assert_eq!((next.version, next.created_ms, next.created_by.as_deref(), &next.precedent), (3, 30, None, &None));
        assert_eq!(next.permits, latest.permits, "the permits precedent set stay");
        for (c, text) in next.clauses.iter().zip(&revision) {
            assert_eq!(c.text, text.text, "{}: the revision's own text", c.id);
            let kept: &[Precedent] = if c.id == "003 §3.6" { std::slice::from_ref(&precedent) } else { &[] };
            assert_eq!(c.precedents, kept, "{}", c.id);
        }
    }

    #[test]
    fn citations() {
        assert!(is_citation("003 §1.4") && is_citation("000 §5") && is_citation("003 §12.8"));
        for bad in ["003 §", "004 §1.1", "003 §1..2", "003 §1.a", "003 1.4", "§1.4", ""] {
            assert!(!is_citation(bad), "{bad}");
        }
    }
}
