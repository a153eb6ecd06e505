//! SA025 `subagent-model-unresolvable`: a `model:` the runtime cannot resolve (harness-spec
//! §3.2: the child gets the parent's). Found with the tool lists, since a collection repeats the
//! same value across files and it is said once (`one_warning_per_value`).

use super::Repeatable;
use crate::base::Severity;
use crate::rules::{declare_rule, Base, Example, Profile};
use crate::workspace::models::{self, ModelLookup};
use crate::workspace::subagent::SubagentDoc;
use crate::workspace::Workspace;

declare_rule! {
    code: "SA025",
    name: "subagent-model-unresolvable",
    severity: Severity::Warning,
    profile: Profile::Harness,
    summary: r#"`model:` names a model id that no shipped model provider and no `[agent] models` entry resolves."#,
    consequence: r#"At spawn the runtime runs the subagent on the parent's model, without a log line."#,
    explanation: r#"The harness resolves a subagent's `model:` with `ModelRegistry.canResolve(id)`: a name the application registered (`ModelRegistry.register`, `registerFactory`, or the builder's `modelResolver`), else the first model provider on the classpath whose `supports(id)` is true. An id nothing resolves is not an error, and nothing says so: `resolveModel` in `HarnessAgentBuilderSupport` asks the resolver only when `canResolve` is true or the application set a `modelResolver`, and otherwise returns the parent's model without a log line (a WARN comes only when a resolver throws).

`model: inherit` (Claude Code's way to say "the parent's model") is not reported: the runtime gives the parent's model, which is what it means.

Model ids copied from other agent runtimes (`sonnet`, `haiku`, `opus`, `inherit`, `gpt-4o`) resolve to nothing here. A collection repeats the same id in every file, so the same `model:` value is one finding: the first file in path order gets the warning, whose message says how many other files name the same model, and each of those gets an info at its own `model:` saying `same as in <first file>`, with the first file as related location. A value no other file uses is a plain warning. If the application registers such a name itself, list it in agentws.toml so agentws knows:

```toml
[agent]
models = ["sonnet", "corp-*"]   # `*` at the end matches a prefix
```

The providers the AgentScope repository ships, and the ids their `supports` accepts (Java `Pattern.matches`, case-sensitive, `.+` = at least one character, no line break), as read at commit `c2d43f86e668a21ca4aa0120adf2296251eefa2e` of agentscope-java (2026-08-22):

| ids | provider | file |
|---|---|---|
| `openai:.+` | openai | `agentscope-extensions/agentscope-extensions-model/agentscope-extensions-model-openai/src/main/java/io/agentscope/extensions/model/openai/OpenAIModelProvider.java` |
| `anthropic:.+` | anthropic | `agentscope-extensions/agentscope-extensions-model/agentscope-extensions-model-anthropic/src/main/java/io/agentscope/extensions/model/anthropic/AnthropicModelProvider.java` |
| `gemini:.+` | gemini | `agentscope-extensions/agentscope-extensions-model/agentscope-extensions-model-gemini/src/main/java/io/agentscope/extensions/model/gemini/GeminiModelProvider.java` |
| `dashscope:.+`, `qwen.+` | dashscope | `agentscope-extensions/agentscope-extensions-model/agentscope-extensions-model-dashscope/src/main/java/io/agentscope/extensions/model/dashscope/DashScopeModelProvider.java` |
| `ollama:.+` | ollama | `agentscope-extensions/agentscope-extensions-model/agentscope-extensions-model-ollama/src/main/java/io/agentscope/extensions/model/ollama/OllamaModelProvider.java` |
| `deepseek:.+` | deepseek | `agentscope-extensions/agentscope-extensions-model/agentscope-extensions-model-openai/src/main/java/io/agentscope/extensions/model/openai/compat/deepseek/DeepSeekModelProvider.java` |
| `glm:.+` | glm | `agentscope-extensions/agentscope-extensions-model/agentscope-extensions-model-openai/src/main/java/io/agentscope/extensions/model/openai/compat/glm/GLMModelProvider.java` |
| `kimi:.+` | kimi | `agentscope-extensions/agentscope-extensions-model/agentscope-extensions-model-openai/src/main/java/io/agentscope/extensions/model/openai/compat/kimi/KimiModelProvider.java` |
| `minimax:.+` | minimax | `agentscope-extensions/agentscope-extensions-model/agentscope-extensions-model-openai/src/main/java/io/agentscope/extensions/model/openai/compat/minimax/MiniMaxModelProvider.java` |

The lookup itself is `agentscope-core/src/main/java/io/agentscope/core/model/ModelRegistry.java` (`canResolve`: trimmed id, named models, user factories, then the providers listed in `META-INF/services/io.agentscope.core.model.spi.ModelProvider`), and the spawn-time fallback is `resolveModel` in `agentscope-harness/src/main/java/io/agentscope/harness/agent/HarnessAgentBuilderSupport.java`. Whether a provider's module is on the classpath, and whether its API key is set, cannot be seen from the workspace: agentws accepts every id one of these providers supports."#,
    examples: &[Example {
        base: Base::None,
        triggering: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
model: sonnet
---
You research a question and answer with sources.
"#,
        )],
        fixed: &[(
            ".agentscope/workspace/subagents/researcher.md",
            r#"---
description: Researches questions on the web.
model: anthropic:claude-sonnet-4-5
---
You research a question and answer with sources.
"#,
        )],
        at: ".agentscope/workspace/subagents/researcher.md:3:8",
    }],
}

pub(super) fn check(workspace: &Workspace, subagent: &SubagentDoc) -> Option<Repeatable> {
    let model = subagent.model.as_ref()?;
    // Claude Code's `inherit` gets what it asks for: the parent's model (silently, as any id
    // nothing resolves).
    if model.value.is_empty() || model.value.eq_ignore_ascii_case("inherit") {
        return None;
    }
    let registered = &workspace.config.agent.models;
    if models::resolve(&model.value, registered) != ModelLookup::Unresolvable {
        return None;
    }
    let hint = models::hint(&model.value)
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
    let diagnostic = RULE.at(
        &subagent.path,
        model.range,
        format!(
            "no model provider shipped with AgentScope supports `{}`, and agentws.toml's `[agent] models` does not list it: at spawn the runtime silently runs this subagent on the parent's model (no log line says so){hint}",
            model.value
        ),
    );
    Some(Repeatable::new(model.value.clone(), subagent, diagnostic))
}
