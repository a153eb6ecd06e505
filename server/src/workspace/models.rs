//! Whether the runtime can resolve a subagent's `model:` id (harness-spec §3.2, §9.3).
//!
//! At spawn the harness asks `ModelRegistry.canResolve(id)`: a model the application registered
//! by name or factory, else the first model provider (Java `ServiceLoader`) whose `supports(id)`
//! is true. An id nothing resolves gives the child the parent's model, without a log line
//! (`HarnessAgentBuilderSupport.resolveModel`).
//! The providers below are the ones the AgentScope repository ships; which of them are on the
//! application's classpath cannot be seen from the workspace, so agentws accepts every id one of
//! them supports. Names the application registers itself are listed in agentws.toml
//! (`[agent] models`). Depends on nothing but the standard library.

/// One model provider the AgentScope repository ships: its `providerId()` and the id prefix its
/// `supports` accepts (`Pattern.matches("<prefix>.+")`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provider {
    pub id: &'static str,
    pub prefix: &'static str,
}

/// The shipped providers, in the order their `supports` patterns are documented in docs/rules.md
/// (SA025). DashScope accepts `qwen…` without a prefix too.
pub const PROVIDERS: &[Provider] = &[
    Provider {
        id: "openai",
        prefix: "openai:",
    },
    Provider {
        id: "anthropic",
        prefix: "anthropic:",
    },
    Provider {
        id: "gemini",
        prefix: "gemini:",
    },
    Provider {
        id: "dashscope",
        prefix: "dashscope:",
    },
    Provider {
        id: "dashscope",
        prefix: "qwen",
    },
    Provider {
        id: "ollama",
        prefix: "ollama:",
    },
    Provider {
        id: "deepseek",
        prefix: "deepseek:",
    },
    Provider {
        id: "glm",
        prefix: "glm:",
    },
    Provider {
        id: "kimi",
        prefix: "kimi:",
    },
    Provider {
        id: "minimax",
        prefix: "minimax:",
    },
];

/// How a model id resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelLookup {
    /// Listed in `[agent] models`.
    Registered,
    /// A shipped provider supports it.
    Provider(&'static str),
    /// Nothing resolves it: at spawn the runtime uses the parent's model, silently.
    Unresolvable,
}

/// Resolves `model` (already trimmed, as the runtime trims it) against the names the application
/// registers (`registered`, where `prefix*` matches a prefix) and the shipped providers.
pub fn resolve(model: &str, registered: &[String]) -> ModelLookup {
    let matches_registered = registered.iter().any(|name| match name.strip_suffix('*') {
        Some(prefix) => model.starts_with(prefix),
        None => name == model,
    });
    if matches_registered {
        return ModelLookup::Registered;
    }
    for provider in PROVIDERS {
        if let Some(rest) = model.strip_prefix(provider.prefix) {
            if java_dot_plus(rest) {
                return ModelLookup::Provider(provider.id);
            }
        }
    }
    ModelLookup::Unresolvable
}

/// Java's `.+` under `Pattern.matches`: one or more characters, none a line terminator.
fn java_dot_plus(s: &str) -> bool {
    !s.is_empty()
        && !s
            .chars()
            .any(|c| matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'))
}

/// A hint for ids copied from other agent runtimes' specs, if one applies.
pub fn hint(model: &str) -> Option<&'static str> {
    let lower = model.to_ascii_lowercase();
    if ["sonnet", "haiku", "opus"].contains(&lower.as_str()) || lower.starts_with("claude") {
        Some("Anthropic models are written `anthropic:<model name>`")
    } else if lower.starts_with("gpt") || lower.starts_with("o1") || lower.starts_with("o3") {
        Some("OpenAI models are written `openai:<model name>`")
    } else if lower.starts_with("gemini") {
        Some("Gemini models are written `gemini:<model name>`")
    } else if lower.starts_with("qwen") {
        Some("DashScope accepts `qwen…` ids in lowercase, or `dashscope:<model name>`")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_providers_and_registered_names() {
        let none: &[String] = &[];
        assert_eq!(
            resolve("openai:gpt-4o-mini", none),
            ModelLookup::Provider("openai")
        );
        assert_eq!(
            resolve("qwen3-max", none),
            ModelLookup::Provider("dashscope")
        );
        assert_eq!(
            resolve("dashscope:qwen-max", none),
            ModelLookup::Provider("dashscope")
        );
        assert_eq!(resolve("kimi:k2", none), ModelLookup::Provider("kimi"));
        // `.+` needs a character after the prefix, and none may end a line.
        assert_eq!(resolve("openai:", none), ModelLookup::Unresolvable);
        assert_eq!(resolve("qwen", none), ModelLookup::Unresolvable);
        assert_eq!(resolve("openai:a\nb", none), ModelLookup::Unresolvable);
        // Case-sensitive, like the Java patterns.
        assert_eq!(resolve("Qwen-max", none), ModelLookup::Unresolvable);
        assert_eq!(resolve("OpenAI:gpt-4o", none), ModelLookup::Unresolvable);
        for copied in ["sonnet", "haiku", "opus", "gpt-4o"] {
            assert_eq!(resolve(copied, none), ModelLookup::Unresolvable, "{copied}");
            assert!(hint(copied).is_some(), "{copied}");
        }
        // `inherit` resolves to nothing either (SA025 leaves it alone: the parent's model is
        // what it asks for).
        assert_eq!(resolve("inherit", none), ModelLookup::Unresolvable);
        assert_eq!(hint("inherit"), None);
        let registered = vec!["sonnet".to_string(), "corp-*".to_string()];
        assert_eq!(resolve("sonnet", &registered), ModelLookup::Registered);
        assert_eq!(resolve("corp-large", &registered), ModelLookup::Registered);
        assert_eq!(resolve("haiku", &registered), ModelLookup::Unresolvable);
    }
}
