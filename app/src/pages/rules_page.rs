//! `/rules` (000 §9 "규칙 보기"): the rules for players, in the page's language — capture,
//! suicide, ko and repetition per preset, territory and area counting with the 000 §6.4
//! example, seki, and what differs in Space — with flat diagrams in the board's own drawing
//! style and a small box in the room's 3D view (`BoardCanvas`).

use leptos::prelude::*;

#[cfg(test)]
use super::board_picture::Cell;
use super::board_picture::{parse, BoardPicture};
use crate::{
    board_view::{BoardCanvas, BoardScene},
    tr,
};
use wire::events::Colour;

/// A diagram from its ASCII form (see [`Cell`]), with its caption.
#[component]
fn FlatDiagram(
    rows: &'static [&'static str],
    caption: &'static str,
    testid: &'static str,
    #[prop(optional)] coords: bool,
) -> impl IntoView {
    let text = move || crate::i18n::text(crate::i18n::use_lang().get(), caption);
    view! {
        <figure class="diagram" data-testid=testid>
            <BoardPicture cells=parse(rows) label=Signal::derive(text) testid="picture" coords=coords/>
            <figcaption>{text}</figcaption>
        </figure>
    }
}

/// The 3×3×3 box of the Space section: a black stone in the middle of a face, its four
/// neighbours on that face white, its interior liberty shown as the ruling's green bead.
fn space_scene() -> BoardScene {
    let mut s = BoardScene::empty_cube(3);
    s.stones = vec![
        ([2, 2, 1], Colour::Black),
        ([1, 2, 1], Colour::White),
        ([3, 2, 1], Colour::White),
        ([2, 1, 1], Colour::White),
        ([2, 3, 1], Colour::White),
    ];
    s.cited = vec![[2, 2, 2]];
    s.layer = 1;
    s
}

#[component]
pub fn RulesPage() -> impl IntoView {
    let section = |title: &'static str, testid: &'static str| {
        view! { <h2 id=testid data-testid=testid>{move || crate::i18n::text(crate::i18n::use_lang().get(), title)}</h2> }
    };
    let para = |key: &'static str| view! { <p>{move || crate::i18n::text(crate::i18n::use_lang().get(), key)}</p> };
    view! {
        <crate::pages::TopBar/>
        <main class="page rules-page" data-testid="rules-page">
            <h1>{move || tr!("rules.title")}</h1>
            <p>{move || tr!("rules.intro")}" "<a href="/rules/common">{move || tr!("rules.common_link")}</a></p>
            {section("rules.capture.title", "rules-capture")}
            {para("rules.capture.text")}
            <FlatDiagram testid="diagram-capture" caption="rules.capture.caption"
                rows=&[". . . . .", ". . X . .", ". X O a .", ". . X . .", ". . . . ."]/>
            {section("rules.suicide.title", "rules-suicide")}
            {para("rules.suicide.text")}
            <FlatDiagram testid="diagram-suicide" caption="rules.suicide.caption"
                rows=&["a X . . .", "X . . . .", ". . . . .", ". . . . ."]/>
            {section("rules.ko.title", "rules-ko")}
            {para("rules.ko.text")}
            <FlatDiagram testid="diagram-ko" caption="rules.ko.caption"
                rows=&[". X O . .", "X O a O .", ". X O . .", ". . . . ."]/>
            {para("rules.ko.classic")}
            {para("rules.ko.space")}
            {section("rules.count.title", "rules-count")}
            {para("rules.count.text")}
            <FlatDiagram testid="diagram-count" caption="rules.count.caption" coords=true rows=&[
                "+ + + + X O - - -",
                "+ + + + X O - - -",
                "+ + + + X O - - -",
                "+ + + + X O - - -",
                "+ D + + X O - - -",
                "+ + + + X O - - -",
                "+ + + + X O - - -",
                "+ + + + X O - - -",
                "+ + + + X O - - -",
            ]/>
            <p data-testid="rules-territory">{move || tr!("rules.count.territory")}</p>
            <p data-testid="rules-area">{move || tr!("rules.count.area")}</p>
            {section("rules.seki.title", "rules-seki")}
            {para("rules.seki.text")}
            {section("rules.space.title", "rules-space")}
            {para("rules.space.six")}
            {para("rules.space.liberties")}
            <figure class="diagram space-diagram" data-testid="diagram-space">
                <BoardCanvas scene=Signal::stored(space_scene()) testid="rules-box"
                    label=Signal::derive(move || tr!("rules.space.caption"))/>
                <figcaption>{move || tr!("rules.space.caption")}</figcaption>
            </figure>
            {para("rules.space.spaces")}
            {para("rules.space.two")}
            {para("rules.space.score")}
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_of_000_6_4_is_drawn_as_the_clause_says() {
        // Column E black, column F white, the dead white stone at B5, Black's 36 points on
        // the left (B5 included) and White's 27 on the right.
        let rows = [
            "+ + + + X O - - -",
            "+ + + + X O - - -",
            "+ + + + X O - - -",
            "+ + + + X O - - -",
            "+ D + + X O - - -",
            "+ + + + X O - - -",
            "+ + + + X O - - -",
            "+ + + + X O - - -",
            "+ + + + X O - - -",
        ];
        let cells = parse(&rows);
        let count = |want: Cell| cells.iter().flatten().filter(|c| **c == want).count();
        assert_eq!(count(Cell::Stone(Colour::Black)), 9);
        assert_eq!(count(Cell::Stone(Colour::White)), 9);
        assert_eq!(count(Cell::Territory(Colour::Black)) + count(Cell::DeadWhite), 36);
        assert_eq!(count(Cell::Territory(Colour::White)), 27);
        // B5: column B, the fifth row from the bottom of nine.
        assert_eq!(cells[9 - 5][1], Cell::DeadWhite);
    }
}
