//! The new-room form's agreement fields (003 §1.3–1.5, §6.4, §9.7, §10.1): the common-rules
//! version the room will pin, special rules among the kinds it permits, the outside-
//! assistance agreement, record retention and the scoring wait, each starting from what the
//! site announced.

use leptos::{prelude::*, task::spawn_local};

use crate::{governance::Agreements, pages::header::fmt_time, tr};

use wire::settings::{
    AssistanceExtent, AssistanceScope, Assistant, AssistantKind, AssistedPlayer, MatchSettings, Preset, SpecialRule,
    SpecialRuleKind, MAX_ASSISTANTS,
};

/// One assistant's row in the form.
#[derive(Clone, Copy)]
struct AssistantRow {
    name: RwSignal<String>,
    kind: RwSignal<AssistantKind>,
    helps: RwSignal<AssistedPlayer>,
    extent: RwSignal<AssistanceExtent>,
}

impl AssistantRow {
    fn new() -> Self {
        AssistantRow {
            name: RwSignal::new(String::new()),
            kind: RwSignal::new(AssistantKind::Person),
            helps: RwSignal::new(AssistedPlayer::Both),
            extent: RwSignal::new(AssistanceExtent::RulesAndControls),
        }
    }
}

/// What the agreement fields hold; [`AgreementState::apply`] writes it into the settings.
#[derive(Clone, Copy)]
pub struct AgreementState {
    agreements: RwSignal<Option<Agreements>>,
    retention: RwSignal<Option<u32>>,
    wait_min: RwSignal<Option<u32>>,
    undo_limit: RwSignal<Option<u32>>,
    notes: RwSignal<String>,
    assistants: RwSignal<Vec<AssistantRow>>,
}

impl AgreementState {
    /// Empty fields; what the site announced is loaded after hydration.
    pub fn new() -> Self {
        let s = AgreementState {
            agreements: RwSignal::new(None),
            retention: RwSignal::new(None),
            wait_min: RwSignal::new(None),
            undo_limit: RwSignal::new(None),
            notes: RwSignal::new(String::new()),
            assistants: RwSignal::new(Vec::new()),
        };
        Effect::new(move |_| {
            spawn_local(async move {
                if let Ok(a) = crate::api::governance::agreements_now().await {
                    s.retention.set(Some(a.defaults.retention_days));
                    s.wait_min.set(Some(a.defaults.scoring_wait_min));
                    s.agreements.set(Some(a));
                }
            })
        });
        s
    }

    /// Subscribes the caller to every field, so that checks and summaries computed from
    /// [`apply`](Self::apply) follow them.
    pub fn track(&self) {
        self.agreements.track();
        self.retention.track();
        self.wait_min.track();
        self.undo_limit.track();
        self.notes.track();
        self.assistants.with(|rows| {
            for r in rows {
                r.name.track();
                r.kind.track();
                r.helps.track();
                r.extent.track();
            }
        });
    }

    /// Writes the fields into `s` (Space: special rules and the scoring wait; both presets:
    /// assistance, retention and the version agreed to).
    pub fn apply(&self, s: &mut MatchSettings) {
        s.common_rules_version = self.agreements.get_untracked().map(|a| a.version);
        s.record_retention_days = self.retention.get_untracked();
        let rows = self.assistants.get_untracked();
        s.assistance = if rows.is_empty() {
            AssistanceScope::None
        } else {
            AssistanceScope::Agreed {
                assistants: rows
                    .iter()
                    .map(|r| Assistant {
                        name: r.name.get_untracked(),
                        kind: r.kind.get_untracked(),
                        helps: r.helps.get_untracked(),
                        extent: r.extent.get_untracked(),
                    })
                    .collect(),
            }
        };
        if s.preset == Preset::Space {
            if let Some(m) = self.wait_min.get_untracked() {
                s.scoring_deadline_s = m.saturating_mul(60);
            }
            let mut rules = Vec::new();
            if let Some(n) = self.undo_limit.get_untracked() {
                rules.push(SpecialRule::UndoLimit { per_player: n });
            }
            rules.extend(self.notes.get_untracked().lines().map(|l| SpecialRule::Note { text: l.to_string() }));
            s.special_rules = rules;
        }
    }
}

fn number(v: &str) -> Option<u32> {
    v.trim().parse().ok()
}

#[component]
pub fn AgreementFields(state: AgreementState, preset: RwSignal<Preset>) -> impl IntoView {
    let AgreementState { agreements, retention, wait_min, undo_limit, notes, assistants } = state;
    let permits = move |kind: SpecialRuleKind| agreements.get().and_then(|a| a.permits.permit(kind).cloned());
    view! {
        <fieldset class="agreement" data-testid="agreement-fields">
            <legend>{move || tr!("new.agreement")}</legend>
            <p class="hint" data-testid="rules-version">
                {move || agreements.get().map(|a| tr!("new.rules_version", version = a.version))}
                " · "<a href="/rules/common" target="_blank">{move || tr!("rules.common.title")}</a>
            </p>
            <p class="hint" data-testid="site-defaults-notice">{move || agreements.get().map(|a| match a.defaults.set_ms {
                Some(ms) => tr!("new.defaults_announced", date = fmt_time(ms)),
                None => tr!("new.defaults_program").to_string(),
            })}</p>
            <label>{move || tr!("new.retention")}
                <input type="number" data-testid="retention-days" min="0" max="36500"
                    prop:value=move || retention.get().map(|d| d.to_string()).unwrap_or_default()
                    on:input=move |e| retention.set(number(&event_target_value(&e)))/>
                <span class="hint">{move || tr!("new.retention_hint")}</span>
            </label>
            <Show when=move || preset.get() == Preset::Space>
                <label>{move || tr!("new.scoring_wait")}
                    <input type="number" data-testid="scoring-wait" min="0" max="10080"
                        prop:value=move || wait_min.get().map(|d| d.to_string()).unwrap_or_default()
                        on:input=move |e| wait_min.set(number(&event_target_value(&e)))/>
                </label>
                <Show when=move || permits(SpecialRuleKind::UndoLimit).is_some()>
                    <label class="check">
                        <input type="checkbox" data-testid="undo-limit-on" prop:checked=move || undo_limit.get().is_some()
                            on:change=move |e| undo_limit.set(event_target_checked(&e).then_some(3))/>
                        {move || {
                            let p = permits(SpecialRuleKind::UndoLimit);
                            let (min, max) = p.map(|p| (p.min.unwrap_or(0), p.max.unwrap_or(0))).unwrap_or_default();
                            tr!("new.undo_limit", min = min, max = max)
                        }}
                    </label>
                    <Show when=move || undo_limit.get().is_some()>
                        <label>{move || tr!("new.undo_limit_count")}
                            <input type="number" data-testid="undo-limit" min="0"
                                prop:value=move || undo_limit.get().map(|n| n.to_string()).unwrap_or_default()
                                on:input=move |e| undo_limit.set(Some(number(&event_target_value(&e)).unwrap_or(0)))/>
                        </label>
                    </Show>
                </Show>
                <label>{move || tr!("new.notes")}
                    <textarea data-testid="special-notes" rows="2" prop:value=notes
                        on:input=move |e| notes.set(event_target_value(&e))></textarea>
                    <span class="hint">{move || tr!("new.notes_hint")}</span>
                </label>
            </Show>
            <div class="assistants" data-testid="assistance">
                <p>{move || tr!("new.assistance")}</p>
                <Show when=move || assistants.get().is_empty()>
                    <p class="hint" data-testid="assistance-none">{move || tr!("summary.assistance_none")}</p>
                </Show>
                {move || assistants.get().into_iter().enumerate().map(|(i, r)| view! {
                    <div class="assistant" data-testid=format!("assistant-{i}")>
                        <label>{move || tr!("new.assistant_name")}
                            <input data-testid="assistant-name" maxlength="80" prop:value=r.name
                                on:input=move |e| r.name.set(event_target_value(&e))/>
                        </label>
                        <label>{move || tr!("new.assistant_kind")}
                            <select data-testid="assistant-kind" on:change=move |e| r.kind.set(
                                if event_target_value(&e) == "program" { AssistantKind::Program } else { AssistantKind::Person })>
                                <option value="person">{move || tr!("summary.assistant_person")}</option>
                                <option value="program">{move || tr!("summary.assistant_program")}</option>
                            </select>
                        </label>
                        <label>{move || tr!("new.assistant_helps")}
                            <select data-testid="assistant-helps" on:change=move |e| r.helps.set(match event_target_value(&e).as_str() {
                                "host" => AssistedPlayer::Host,
                                "guest" => AssistedPlayer::Guest,
                                _ => AssistedPlayer::Both,
                            })>
                                <option value="both">{move || tr!("summary.assists_both")}</option>
                                <option value="host">{move || tr!("summary.assists_host")}</option>
                                <option value="guest">{move || tr!("summary.assists_guest")}</option>
                            </select>
                        </label>
                        <label>{move || tr!("new.assistant_extent")}
                            <select data-testid="assistant-extent" on:change=move |e| r.extent.set(match event_target_value(&e).as_str() {
                                "scoring" => AssistanceExtent::ScoringReview,
                                "full" => AssistanceExtent::FullAdvice,
                                _ => AssistanceExtent::RulesAndControls,
                            })>
                                <option value="rules">{move || tr!("summary.extent_rules")}</option>
                                <option value="scoring">{move || tr!("summary.extent_scoring")}</option>
                                <option value="full">{move || tr!("summary.extent_full")}</option>
                            </select>
                        </label>
                        <button type="button" data-testid="assistant-remove"
                            on:click=move |_| assistants.update(|v| { v.remove(i); })>{move || tr!("new.assistant_remove")}</button>
                    </div>
                }).collect_view()}
                <Show when=move || { assistants.get().len() < MAX_ASSISTANTS }>
                    <button type="button" data-testid="assistant-add"
                        on:click=move |_| assistants.update(|v| v.push(AssistantRow::new()))>{move || tr!("new.assistant_add")}</button>
                </Show>
            </div>
        </fieldset>
    }
}
