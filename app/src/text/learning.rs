//! Sentences of local learning (003 §12): training refusals.

use super::{t, t_with};
use wire::learning::TrainingRefusal;

use crate::i18n::Lang;

pub fn refusal(lang: Lang, r: &TrainingRefusal) -> String {
    match r {
        TrainingRefusal::TooFewGames { have, need } => {
            t_with(lang, "error.training.too_few_games", &[("have", &have.to_string()), ("need", &need.to_string())])
        }
        TrainingRefusal::EpochsOutOfRange { got, min, max } => t_with(
            lang,
            "error.training.epochs",
            &[("got", &got.to_string()), ("min", &min.to_string()), ("max", &max.to_string())],
        ),
        TrainingRefusal::AlreadyRunning => t(lang, "error.training.running"),
        TrainingRefusal::PauseNotConfirmed { games_in_play } => {
            t_with(lang, "error.training.confirm_pause", &[("n", &games_in_play.to_string())])
        }
        TrainingRefusal::NoPairs => t(lang, "error.training.no_pairs"),
    }
}
