//! Whether the runtime can resolve a subagent's `model:` id (harness-spec §3.2, §9.3), and the
//! context window the runtime gives the model an id names.
//!
//! At spawn the harness asks `ModelRegistry.canResolve(id)`: a model the application registered
//! by name or factory, else the first model provider (Java `ServiceLoader`) whose `supports(id)`
//! is true. An id nothing resolves gives the child the parent's model, without a log line
//! (`HarnessAgentBuilderSupport.resolveModel`).
//! The providers below are the ones the AgentScope repository ships; which of them are on the
//! application's classpath cannot be seen from the workspace, so agentws accepts every id one of
//! them supports. Names the application registers itself are listed in agentws.toml
//! (`[agent] models`). Depends on nothing but the standard library.

/// One model provider the AgentScope repository ships: its `providerId()`, the id prefix its
/// `supports` accepts (`Pattern.matches("<prefix>.+")`), and the context windows its models report
/// when the application sets none (`ModelContextWindows`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provider {
    pub id: &'static str,
    pub prefix: &'static str,
    pub windows: &'static [(&'static str, u32)],
}

/// The shipped providers, in the order their `supports` patterns are documented in docs/rules.md
/// (SA025). DashScope accepts `qwen…` without a prefix too.
pub const PROVIDERS: &[Provider] = &[
    Provider {
        id: "openai",
        prefix: "openai:",
        windows: OPENAI,
    },
    Provider {
        id: "anthropic",
        prefix: "anthropic:",
        windows: ANTHROPIC,
    },
    Provider {
        id: "gemini",
        prefix: "gemini:",
        windows: GEMINI,
    },
    Provider {
        id: "dashscope",
        prefix: "dashscope:",
        windows: DASHSCOPE,
    },
    Provider {
        id: "dashscope",
        prefix: "qwen",
        windows: DASHSCOPE,
    },
    Provider {
        id: "ollama",
        prefix: "ollama:",
        windows: &[],
    },
    Provider {
        id: "deepseek",
        prefix: "deepseek:",
        windows: DEEPSEEK,
    },
    Provider {
        id: "glm",
        prefix: "glm:",
        windows: GLM,
    },
    Provider {
        id: "kimi",
        prefix: "kimi:",
        windows: KIMI,
    },
    Provider {
        id: "minimax",
        prefix: "minimax:",
        windows: MINIMAX,
    },
];

// The context windows of `ModelContextWindows` (agentscope-core, the same from v2.0.2 to main),
// total tokens (input and output) per model-name prefix.

const DASHSCOPE: &[(&str, u32)] = &[
    ("qwen3-235b", 131_072),
    ("qwen3-32b", 131_072),
    ("qwen3-30b", 131_072),
    ("qwen3-14b", 131_072),
    ("qwen3-8b", 131_072),
    ("qwen3-4b", 131_072),
    ("qwen3-1.7b", 32_768),
    ("qwen3-0.6b", 32_768),
    ("qwen3.7", 131_072),
    ("qwen-max", 32_768),
    ("qwen-plus", 131_072),
    ("qwen-turbo", 1_000_000),
    ("qwen-long", 10_000_000),
    ("qwen2.5", 131_072),
    ("qvq", 131_072),
    ("qwq", 131_072),
];

const OPENAI: &[(&str, u32)] = &[
    ("gpt-4.1-mini", 1_047_576),
    ("gpt-4.1-nano", 1_047_576),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o-mini", 128_000),
    ("gpt-4o", 128_000),
    ("gpt-4-turbo", 128_000),
    ("o4-mini", 200_000),
    ("o3-mini", 200_000),
    ("o3", 200_000),
    ("o1-mini", 128_000),
    ("o1", 200_000),
];

const DEEPSEEK: &[(&str, u32)] = &[
    ("deepseek-v4-flash", 1_000_000),
    ("deepseek-v4-pro", 1_000_000),
];

const GLM: &[(&str, u32)] = &[
    ("glm-5.2", 1_000_000),
    ("glm-5.1", 200_000),
    ("glm-5-turbo", 200_000),
    ("glm-5", 200_000),
    ("glm-4.7-flashx", 200_000),
    ("glm-4.7-flash", 200_000),
    ("glm-4.7", 200_000),
    ("glm-4.6", 200_000),
    ("glm-4.5-airx", 128_000),
    ("glm-4.5-air", 128_000),
    ("glm-4-flashx-250414", 128_000),
    ("glm-4-flash-250414", 128_000),
    ("glm-4-long", 1_000_000),
];

const MINIMAX: &[(&str, u32)] = &[
    ("minimax-m3", 1_000_000),
    ("minimax-m2.7-highspeed", 204_800),
    ("minimax-m2.7", 204_800),
    ("minimax-m2.5-highspeed", 204_800),
    ("minimax-m2.5", 204_800),
    ("minimax-m2.1-highspeed", 204_800),
    ("minimax-m2.1", 204_800),
    ("minimax-m2", 204_800),
    ("m2-her", 65_536),
];

const KIMI: &[(&str, u32)] = &[
    ("kimi-k3", 1_048_576),
    ("kimi-k2.7-code-highspeed", 262_144),
    ("kimi-k2.7-code", 262_144),
    ("kimi-k2.6", 262_144),
    ("kimi-k2.5", 262_144),
    ("moonshot-v1-128k-vision-preview", 131_072),
    ("moonshot-v1-128k", 131_072),
    ("moonshot-v1-32k-vision-preview", 32_768),
    ("moonshot-v1-32k", 32_768),
    ("moonshot-v1-8k-vision-preview", 8_192),
    ("moonshot-v1-8k", 8_192),
];

const ANTHROPIC: &[(&str, u32)] = &[
    ("claude-opus-4", 200_000),
    ("claude-sonnet-4", 200_000),
    ("claude-haiku-4", 200_000),
    ("claude-3-7", 200_000),
    ("claude-3-5", 200_000),
    ("claude-3", 200_000),
];

const GEMINI: &[(&str, u32)] = &[
    ("gemini-2.5", 1_048_576),
    ("gemini-2.0", 1_048_576),
    ("gemini-1.5", 2_097_152),
];

/// The context window the runtime gives a model it creates from `model` (a shipped provider's id,
/// already trimmed) when the application sets none: the provider's table entry whose prefix is the
/// longest prefix of the lower-cased model name (`ModelContextWindows.lookup`). `None` where the
/// runtime reports none (0): an id no shipped provider supports, a name the table does not list,
/// Ollama (no table).
pub fn context_window(model: &str) -> Option<u32> {
    let (provider, name) = shipped_provider(model)?;
    let name = name.to_lowercase();
    provider
        .windows
        .iter()
        .filter(|(prefix, _)| name.starts_with(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|&(_, tokens)| tokens)
}

/// The shipped provider whose `supports` accepts `model`, and the model name it creates (the id
/// without the provider's `<id>:` prefix; DashScope keeps a bare `qwen…` id whole).
fn shipped_provider(model: &str) -> Option<(&'static Provider, &str)> {
    PROVIDERS.iter().find_map(|provider| {
        let rest = model.strip_prefix(provider.prefix)?;
        let name = if provider.prefix.ends_with(':') {
            rest
        } else {
            model
        };
        java_dot_plus(rest).then_some((provider, name))
    })
}

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
    match shipped_provider(model) {
        Some((provider, _)) => ModelLookup::Provider(provider.id),
        None => ModelLookup::Unresolvable,
    }
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

    #[test]
    fn context_windows_follow_the_runtime_lookup() {
        // The longest listed prefix of the lower-cased name wins.
        assert_eq!(context_window("openai:gpt-4.1-mini-2025"), Some(1_047_576));
        assert_eq!(context_window("openai:gpt-4o-mini"), Some(128_000));
        assert_eq!(context_window("openai:GPT-4o"), Some(128_000));
        assert_eq!(context_window("dashscope:qwen-max-latest"), Some(32_768));
        // DashScope's bare ids are the model name whole.
        assert_eq!(context_window("qwen-max"), Some(32_768));
        assert_eq!(context_window("qwen3-1.7b"), Some(32_768));
        assert_eq!(context_window("kimi:moonshot-v1-8k"), Some(8_192));
        assert_eq!(context_window("anthropic:claude-sonnet-4-5"), Some(200_000));
        // Nothing listed, no table, or no provider: the runtime reports no window.
        assert_eq!(context_window("openai:gpt-5"), None);
        assert_eq!(context_window("ollama:llama3"), None);
        assert_eq!(context_window("sonnet"), None);
        assert_eq!(context_window("openai:"), None);
    }
}
