//! The exported participant program (003 §12.6: "a participant script embedding the weights
//! can join LAN games and receives state, turn, suicide and ko checks from the common
//! code"): one self-contained JavaScript file for Node.js 20 or a browser page, made from the
//! template `participant.js` beside this file, the `participant` crate compiled to WASM
//! (inlined as base64) and one model's weights.
//!
//! The WASM comes from the build step `scripts/build-participant.sh` (run by `make unit`),
//! which writes `target/participant/participant.wasm`: beside the default site root
//! `target/site`, so [`wasm_path`] finds it from the site root the server is started with. A
//! deployment puts it at the same place relative to its site root.
//!
//! Usage of the program: the template's header, and docs/api.md (its route and command line).

use std::path::{Path, PathBuf};

use base64::Engine as _;
use engine::computer::{model, Feature, Level, Weights, FEATURE_COUNT};

/// The program's text with its two placeholders.
pub const TEMPLATE: &str = include_str!("participant.js");
/// Replaced by the model's JSON object.
const MODEL_SLOT: &str = "/*@@MODEL@@*/ null";
/// Replaced by the WASM module as a base64 string literal.
const WASM_SLOT: &str = "\"@@WASM_BASE64@@\"";
/// Where the build step writes the module, relative to the site root's parent directory
/// (the repository's `target/`).
pub const WASM_FROM_TARGET: &str = "participant/participant.wasm";

/// The model a participant program plays with.
#[derive(Debug, Clone, PartialEq)]
pub struct ParticipantModel {
    pub id: i64,
    pub version: u32,
    /// `sha256:…` of the weights (`engine::computer::model::fingerprint`); checked here and
    /// by the program's engine on every move.
    pub fingerprint: String,
    /// In `engine::computer::Feature` order.
    pub weights: [f64; FEATURE_COUNT],
    /// 1: the evaluator alone; 2: the search.
    pub level: u8,
}

/// Why no program can be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScriptError {
    #[error("{path}: the participant engine cannot be read ({why}); build it with scripts/build-participant.sh")]
    WasmMissing { path: String, why: String },
    #[error("the participant engine is not a WebAssembly module (no \\0asm header); rebuild it with scripts/build-participant.sh")]
    NotWasm,
    #[error("{0}")]
    Weights(#[from] model::ModelFileError),
    #[error("fingerprint {given} does not match the weights, whose fingerprint is {expected}")]
    FingerprintMismatch { given: String, expected: String },
    #[error("level {0} is not a level; the levels are 1 and 2")]
    Level(u8),
}

/// Where the build step's module is for a server whose site root is `site_root`:
/// `<site_root>/../participant/participant.wasm` (`target/participant/participant.wasm` for
/// the default `target/site`).
pub fn wasm_path(site_root: &Path) -> PathBuf {
    site_root.parent().unwrap_or(site_root).join(WASM_FROM_TARGET)
}

/// The module at `path`, checked to be WebAssembly.
pub fn load_wasm(path: &Path) -> Result<Vec<u8>, ScriptError> {
    let bytes = std::fs::read(path)
        .map_err(|e| ScriptError::WasmMissing { path: path.display().to_string(), why: e.to_string() })?;
    check_wasm(&bytes)?;
    Ok(bytes)
}

fn check_wasm(bytes: &[u8]) -> Result<(), ScriptError> {
    if bytes.starts_with(b"\0asm") {
        Ok(())
    } else {
        Err(ScriptError::NotWasm)
    }
}

/// The model as the program embeds it: `{id, version, fingerprint, level, weights: {name: w}}`.
fn model_json(m: &ParticipantModel) -> serde_json::Value {
    let weights: serde_json::Map<String, serde_json::Value> = Feature::ALL
        .iter()
        .map(|f| {
            let name: &'static str = f.into();
            (name.to_string(), serde_json::json!(m.weights[f.index()]))
        })
        .collect();
    serde_json::json!({
        "id": m.id,
        "version": m.version,
        "fingerprint": m.fingerprint,
        "level": m.level,
        "weights": weights,
    })
}

/// The one-file participant program for `model`, with the engine `wasm` inlined. Refused
/// when the module is not WebAssembly or the model is not one the engine would play with
/// (weights out of bounds, a fingerprint of other weights, no such level).
pub fn script(wasm: &[u8], model: &ParticipantModel) -> Result<String, ScriptError> {
    check_wasm(wasm)?;
    let weights = Weights(model.weights);
    model::check_weights(&weights, "weights")?;
    let expected = model::fingerprint(&weights);
    if model.fingerprint != expected {
        return Err(ScriptError::FingerprintMismatch { given: model.fingerprint.clone(), expected });
    }
    if Level::from_number(model.level).is_none() {
        return Err(ScriptError::Level(model.level));
    }
    // `<` only occurs inside JSON strings, where `\u003c` is the same text: the program can
    // then be inlined in an HTML page too (no `</script>` in it).
    let model_text = model_json(model).to_string().replace('<', "\\u003c");
    let wasm_text = format!("\"{}\"", base64::engine::general_purpose::STANDARD.encode(wasm));
    let header = format!(
        "// Space Baduk participant program: model {} version {} ({}), level {}.\n",
        model.id, model.version, model.fingerprint, model.level
    );
    let mut out = String::with_capacity(header.len() + TEMPLATE.len() + model_text.len() + wasm_text.len());
    out.push_str(&header);
    // One pass over the template, so nothing inserted is taken for a placeholder.
    let mut rest = TEMPLATE;
    while let Some((at, slot, text)) = [(MODEL_SLOT, &model_text), (WASM_SLOT, &wasm_text)]
        .into_iter()
        .filter_map(|(slot, text)| rest.find(slot).map(|at| (at, slot, text)))
        .min_by_key(|(at, ..)| *at)
    {
        out.push_str(&rest[..at]);
        out.push_str(text);
        rest = &rest[at + slot.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::computer::DEFAULT_WEIGHTS;

    /// The smallest WebAssembly module: the header and version 1, no sections.
    const EMPTY_WASM: &[u8] = b"\0asm\x01\0\0\0";

    fn model() -> ParticipantModel {
        ParticipantModel {
            id: 7,
            version: 3,
            fingerprint: model::fingerprint(&DEFAULT_WEIGHTS),
            weights: DEFAULT_WEIGHTS.0,
            level: 2,
        }
    }

    #[test]
    fn each_placeholder_is_in_the_template_once() {
        for slot in [MODEL_SLOT, WASM_SLOT] {
            assert_eq!(TEMPLATE.matches(slot).count(), 1, "{slot}");
        }
    }

    #[test]
    fn the_program_carries_the_module_and_the_model() {
        let js = script(EMPTY_WASM, &model()).unwrap();
        assert!(!js.contains("@@"), "a placeholder is left");
        assert!(js.contains("const WASM_BASE64 = \"AGFzbQEAAAA=\";"), "the module, base64");
        let line = js.lines().find(|l| l.trim_start().starts_with("const MODEL = ")).unwrap();
        let text = line.trim_start().trim_start_matches("const MODEL = ").trim_end_matches(';');
        let m: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!((m["id"].as_i64(), m["version"].as_u64(), m["level"].as_u64()), (Some(7), Some(3), Some(2)));
        assert_eq!(m["fingerprint"], model::fingerprint(&DEFAULT_WEIGHTS));
        for f in Feature::ALL {
            let name: &'static str = f.into();
            assert_eq!(m["weights"][name].as_f64(), Some(DEFAULT_WEIGHTS.0[f.index()]), "{name}");
        }
        assert!(js.starts_with("// Space Baduk participant program: model 7 version 3 (sha256:"), "{}", &js[..80]);
    }

    #[test]
    fn a_model_the_engine_would_refuse_makes_no_program() {
        assert_eq!(script(b"<html>", &model()), Err(ScriptError::NotWasm));
        let mut m = model();
        m.weights[4] = f64::NAN;
        assert!(matches!(script(EMPTY_WASM, &m), Err(ScriptError::Weights(_))));
        let mut m = model();
        m.weights[0] += 1.0;
        assert!(matches!(script(EMPTY_WASM, &m), Err(ScriptError::FingerprintMismatch { .. })));
        let mut m = model();
        m.level = 3;
        assert_eq!(script(EMPTY_WASM, &m), Err(ScriptError::Level(3)));
    }

    #[test]
    fn the_module_is_found_beside_the_site_root() {
        assert_eq!(wasm_path(Path::new("target/site")), Path::new("target/participant/participant.wasm"));
        let dir = std::env::temp_dir().join(format!("sb-participant-{}", std::process::id()));
        let missing = load_wasm(&dir.join("participant.wasm")).unwrap_err();
        assert!(missing.to_string().contains("scripts/build-participant.sh"), "{missing}");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("participant.wasm"), EMPTY_WASM).unwrap();
        assert_eq!(load_wasm(&dir.join("participant.wasm")).unwrap(), EMPTY_WASM);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
