//! How a point is named for players: A–T without I on flat boards (000 §9), the room's own
//! labels with their axis names, or the actual coordinates x,y,z (003 §7.1).

use leptos::prelude::*;
use wire::{events::Xyz, view::RoomView};

use super::RoomCtx;

/// How a point is written for players: A–T without I on flat boards (000 §9), actual
/// coordinates x,y,z on boxes (003 §7.1).
pub fn fmt_xyz(ctx: RoomCtx, at: Xyz) -> String {
    ctx.view.with_untracked(|v| label(v, at))
}

pub fn label(v: &RoomView, at: Xyz) -> String {
    let b = v.settings.board;
    // 003 §7.1: a room's own labels, with the axis names (the same label may occur on two
    // axes). Numeric labels are the actual coordinates, written x,y,z as in the record.
    if let Some(names) = label_set(v) {
        let name = |a: engine::AxisName, k: i64| names.axis(a).get(k as usize).cloned().unwrap_or_default();
        return format!(
            "X {} · Y {} · Z {}",
            name(engine::AxisName::X, at.x - b.x.start),
            name(engine::AxisName::Y, at.y - b.y.start),
            name(engine::AxisName::Z, at.z - b.z.start)
        );
    }
    if b.z.start == b.z.end {
        // Called for every line of the move list: the box alone, without re-validating
        // all the settings.
        if let Ok(g) = engine::Geometry::from_spec(b) {
            if let Some(p) = g.index_of(at.x, at.y, at.z) {
                if let Some(s) = engine::labels::classic_vertex(&g, p) {
                    return s;
                }
            }
        }
    }
    format!("{},{},{}", at.x, at.y, at.z)
}

/// The room's labels when they are not the plain numbers (Classic boards always use
/// vertices: their settings keep numeric labels). Built once per room and kept, since the
/// move list asks for every move.
pub fn label_set(v: &RoomView) -> Option<engine::LabelSet> {
    use wire::settings::CoordLabels;
    type Key = (engine::BoxSpec, CoordLabels);
    thread_local! {
        static LAST: std::cell::RefCell<Option<(Key, Option<engine::LabelSet>)>> = const { std::cell::RefCell::new(None) };
    }
    if v.settings.labels.is_numeric() {
        return None;
    }
    let key = (v.settings.board, v.settings.labels.clone());
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((k, set)) = last.as_ref() {
            if *k == key {
                return set.clone();
            }
        }
        let set = engine::Geometry::from_spec(key.0).ok().and_then(|g| key.1.label_set(&g).ok());
        *last = Some((key, set.clone()));
        set
    })
}
