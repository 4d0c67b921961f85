//! `/games/sgf`: an SGF record of a flat game pasted in and stepped through in the browser —
//! read and replayed by the engine's own SGF reader, so a refused file names what is wrong
//! and at which move. Nothing is sent to the server or stored.

use crate::sync_hydrate::IntoAnySync;
use leptos::prelude::*;

use super::board_picture::{BoardPicture, Cell};
use crate::tr;
use wire::events::Colour;

/// One position of the record: after `n` moves.
#[derive(Debug, Clone, PartialEq)]
struct Frame {
    cells: Vec<Vec<Cell>>,
    /// The move that led here in words ("12. Black D4"); the start has none.
    step: Option<(u32, Colour, Option<String>)>,
    captures: [u32; 2],
}

#[derive(Debug, Clone)]
struct Loaded {
    frames: Vec<Frame>,
    info: engine::sgf::replay::SgfInfo,
    size: (usize, usize),
}

/// Biggest SGF text the page reads (the engine refuses more anyway).
const MAX_TEXT: usize = engine::sgf::MAX_SGF_BYTES;

fn colour(c: engine::Color) -> Colour {
    match c {
        engine::Color::Black => Colour::Black,
        engine::Color::White => Colour::White,
    }
}

/// The record's positions, from the start to the last move (one replay), or the reader's
/// refusal.
fn load(text: &str) -> Result<Loaded, engine::sgf::SgfError> {
    let record = engine::sgf::parse_sgf(text)?;
    let mut positions = Vec::with_capacity(record.moves.len() + 1);
    let full =
        engine::sgf::replay::game_from_sgf_stepwise(&record, engine::Rules::classic(), |g| positions.push(g.clone()))?;
    let geom = full.game.geometry().clone();
    if !geom.is_flat() {
        return Err(engine::sgf::SgfError::Unexportable("not a flat board".into()));
    }
    let moves = full.game.moves();
    let (w, h) = (geom.width(), geom.height());
    let mut frames = Vec::with_capacity(moves.len() + 1);
    for (n, g) in positions.iter().enumerate() {
        let last = n.checked_sub(1).and_then(|i| match moves[i].1 {
            engine::Move::Place(p) => Some(p),
            engine::Move::Pass => None,
        });
        let cells = (0..h)
            .map(|yi| {
                (0..w)
                    .map(|xi| {
                        let Some(p) = geom.point_from_offsets(xi, yi, 0) else { return Cell::Empty };
                        match g.stone_at(p) {
                            Some(c) if Some(p) == last => Cell::Last(colour(c)),
                            Some(c) => Cell::Stone(colour(c)),
                            None => Cell::Empty,
                        }
                    })
                    .collect()
            })
            .collect();
        let step = n.checked_sub(1).map(|i| {
            let (c, mv) = moves[i];
            let at = match mv {
                engine::Move::Place(p) => engine::labels::classic_vertex(&geom, p),
                engine::Move::Pass => None,
            };
            (u32::try_from(n).unwrap_or(u32::MAX), colour(c), at)
        });
        let captures = [g.captures(engine::Color::Black), g.captures(engine::Color::White)];
        frames.push(Frame { cells, step, captures });
    }
    Ok(Loaded { frames, info: full.info, size: (w, h) })
}

/// Reads the file chosen in `e`'s file input as text, then `done` with it (browser only: on
/// the server nothing is ever chosen). A file over the engine's limit is refused unread.
#[cfg(feature = "hydrate")]
fn read_chosen(e: leptos::ev::Event, done: impl FnOnce(Result<String, engine::sgf::SgfError>) + 'static) {
    use wasm_bindgen::JsCast;
    let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
    let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
    let bytes = file.size() as usize;
    if bytes > MAX_TEXT {
        return done(Err(engine::sgf::SgfError::TooLarge { bytes, limit: MAX_TEXT }));
    }
    leptos::task::spawn_local(async move {
        let text = match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
            Ok(buffer) => {
                let bytes = js_sys::Uint8Array::new(&buffer);
                // The file's own CA[] names its character set (Korean servers write EUC-KR);
                // a label the browser does not know falls back to UTF-8.
                let label = charset_of(&bytes.to_vec()).unwrap_or_else(|| "utf-8".into());
                web_sys::TextDecoder::new_with_label(&label)
                    .or_else(|_| web_sys::TextDecoder::new())
                    .and_then(|d| d.decode_with_buffer_source(&bytes))
                    .ok()
            }
            Err(_) => None,
        };
        // An unreadable file reads as empty text, which the reader refuses with its reason.
        done(Ok(text.unwrap_or_default()));
    });
}

/// The character set an SGF file declares in its root's `CA[]` property (FF[4]), read from
/// the raw bytes: the property name and value are ASCII whatever the rest is.
#[cfg(any(feature = "hydrate", test))]
fn charset_of(bytes: &[u8]) -> Option<String> {
    let start = bytes.windows(3).position(|w| w == b"CA[")? + 3;
    let len = bytes[start..].iter().take(40).position(|&b| b == b']')?;
    let label = std::str::from_utf8(&bytes[start..start + len]).ok()?.trim();
    (!label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || "-_:.".contains(c)))
        .then(|| label.to_ascii_lowercase())
}

#[cfg(not(feature = "hydrate"))]
fn read_chosen(_: leptos::ev::Event, _: impl FnOnce(Result<String, engine::sgf::SgfError>) + 'static) {}

fn step_text(f: &Frame) -> String {
    let who = |c: Colour| super::words::colour_text(c);
    match &f.step {
        None => tr!("replay.start"),
        Some((n, c, Some(at))) => tr!("replay.move", n = n, who = who(*c), at = at.clone()),
        Some((n, c, None)) => tr!("replay.pass", n = n, who = who(*c)),
    }
}

#[component]
pub fn SgfViewPage() -> impl IntoView {
    let text = RwSignal::new(String::new());
    let loaded = RwSignal::new(None::<Result<Loaded, engine::sgf::SgfError>>);
    let at = RwSignal::new(0usize);
    let show = move || {
        let t = text.get_untracked();
        let r = if t.len() > MAX_TEXT {
            Err(engine::sgf::SgfError::TooLarge { bytes: t.len(), limit: MAX_TEXT })
        } else {
            load(&t)
        };
        at.set(r.as_ref().map(|l| l.frames.len() - 1).unwrap_or(0));
        loaded.set(Some(r));
    };
    let count = move || loaded.with(|l| l.as_ref().and_then(|r| r.as_ref().ok()).map_or(0, |l| l.frames.len()));
    let step_by = move |d: i64| {
        let n = count();
        if n > 0 {
            at.set((at.get_untracked() as i64 + d).clamp(0, n as i64 - 1) as usize);
        }
    };
    let handle = window_event_listener(leptos::ev::keydown, move |e| {
        let in_field = e
            .target()
            .and_then(|t| leptos::wasm_bindgen::JsCast::dyn_into::<leptos::web_sys::HtmlElement>(t).ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        if in_field || count() == 0 {
            return;
        }
        match e.key().as_str() {
            "ArrowLeft" => step_by(-1),
            "ArrowRight" => step_by(1),
            "Home" => at.set(0),
            "End" => at.set(count() - 1),
            _ => return,
        }
        e.prevent_default();
    });
    on_cleanup(move || handle.remove());
    let frame =
        move || loaded.with(|l| l.as_ref().and_then(|r| r.as_ref().ok()).and_then(|l| l.frames.get(at.get()).cloned()));
    let cells = Signal::derive(move || frame().map(|f| f.cells).unwrap_or_default());
    view! {
        <crate::pages::TopBar/>
        <main class="page" data-testid="sgf-view">
            <h1>{move || tr!("sgf.title")}</h1>
            <p class="hint">{move || tr!("sgf.hint")}</p>
            <label class="sr-only" for="sgf-text">{move || tr!("sgf.paste")}</label>
            <textarea id="sgf-text" data-testid="sgf-text" rows="6" placeholder="(;GM[1]FF[4]SZ[19];B[pd];W[dp])"
                prop:value=text on:input=move |e| text.set(event_target_value(&e))></textarea>
            <p class="sgf-actions">
                <button class="primary" data-testid="sgf-show" on:click=move |_| show()>{move || tr!("sgf.show")}</button>
                <label class="file-pick">{move || tr!("sgf.open_file")}
                    <input type="file" accept=".sgf,application/x-go-sgf,text/plain" data-testid="sgf-file"
                        on:change=move |e| read_chosen(e, move |r| match r {
                            Ok(t) => { text.set(t); show(); }
                            Err(e) => loaded.set(Some(Err(e))),
                        })/>
                </label>
            </p>
            {move || loaded.with(|l| match l {
                Some(Err(e)) => {
                    let at = e.move_number().map(|n| tr!("sgf.at_move", n = n)).unwrap_or_default();
                    Some(view! { <p class="error" role="alert" data-testid="sgf-error">{tr!("sgf.refused", why = e.to_string())}" "{at}</p> }.into_any_sync())
                }
                Some(Ok(l)) => {
                    let info = &l.info;
                    let players = format!(
                        "{} — {}",
                        info.black_player.clone().unwrap_or_else(|| tr!("colour.black")),
                        info.white_player.clone().unwrap_or_else(|| tr!("colour.white"))
                    );
                    let extra = [info.date.clone(), info.result.clone()].into_iter().flatten().collect::<Vec<_>>().join(" · ");
                    let (w, h) = l.size;
                    Some(view! {
                        <p data-testid="sgf-info">{players}" · "{format!("{w}×{h}")}{(!extra.is_empty()).then(|| format!(" · {extra}"))}</p>
                    }.into_any_sync())
                }
                None => None,
            })}
            <Show when=move || { count() > 0 }>
                <div class="sgf-board">
                    <BoardPicture cells=cells label=Signal::derive(move || frame().map(|f| step_text(&f)).unwrap_or_default())
                        testid="sgf-board" coords=true/>
                </div>
                <p class="status" role="status" aria-live="polite" data-testid="sgf-step">
                    {move || frame().map(|f| step_text(&f)).unwrap_or_default()}
                    " · "{move || tr!("replay.step_of", n = at.get() + 1, total = count())}
                    " · "{move || frame().map(|f| tr!("sgf.captures", black = f.captures[0], white = f.captures[1])).unwrap_or_default()}
                </p>
                <div class="replay-controls" role="group" aria-label=move || tr!("replay.controls")>
                    <button data-testid="sgf-first" on:click=move |_| at.set(0) aria-label=move || tr!("replay.first")>"|◀"</button>
                    <button data-testid="sgf-back" on:click=move |_| step_by(-1) aria-label=move || tr!("replay.back")>"◀"</button>
                    <button data-testid="sgf-forward" on:click=move |_| step_by(1) aria-label=move || tr!("replay.forward")>"▶"</button>
                    <button data-testid="sgf-last" on:click=move |_| at.set(count() - 1) aria-label=move || tr!("replay.last")>"▶|"</button>
                </div>
                <p class="hint">{move || tr!("replay.keys")}</p>
            </Show>
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_character_set_is_read_from_the_bytes() {
        let mut korean = b"(;FF[4]CA[EUC-KR]SZ[19]PB[".to_vec();
        korean.extend([0xB9, 0xDA]); // 박 in EUC-KR: not UTF-8
        korean.extend(b"];B[pd])");
        assert_eq!(charset_of(&korean).as_deref(), Some("euc-kr"));
        assert_eq!(charset_of(b"(;FF[4]CA[ UTF-8 ];B[aa])").as_deref(), Some("utf-8"));
        assert_eq!(charset_of(b"(;FF[4]SZ[9];B[aa])"), None, "none declared");
        assert_eq!(charset_of(b"(;CA[];B[aa])"), None, "empty");
        assert_eq!(charset_of(b"(;CA[euc<kr];B[aa])"), None, "not a label");
        assert_eq!(charset_of(b"(;CA[utf-8"), None, "unclosed");
    }

    #[test]
    fn a_record_loads_every_position_and_a_bad_one_names_the_move() {
        let l = load("(;GM[1]FF[4]SZ[9]PB[ann]PW[bo];B[cc];W[gg];B[];W[cd])").unwrap();
        assert_eq!(l.frames.len(), 5);
        assert_eq!(l.size, (9, 9));
        assert_eq!(l.info.black_player.as_deref(), Some("ann"));
        assert!(l.frames[0].cells.iter().flatten().all(|c| *c == Cell::Empty));
        // C7 (column C, row 7 from the bottom: the third row from the top) after move 1.
        assert_eq!(l.frames[1].cells[2][2], Cell::Last(Colour::Black));
        assert_eq!(l.frames[2].cells[2][2], Cell::Stone(Colour::Black));
        assert_eq!(l.frames[3].step, Some((3, Colour::Black, None)), "a pass");
        assert_eq!(l.frames[4].step, Some((4, Colour::White, Some("C6".into()))));
        let e = load("(;GM[1]FF[4]SZ[9];B[cc];W[cc])").unwrap_err();
        assert_eq!(e.move_number(), Some(2), "{e}");
        assert!(load("not sgf").is_err());
    }
}
