//! Generates a large, valid AgentScope workspace for benchmarking `agentws check`.
//!
//! ```sh
//! cargo run --release --example genws -- OUT --skills 10000 --subagents 1000 --users 100 \
//!     --mcp-servers 200 [--seed 42]
//! ```
//!
//! OUT becomes a project folder: `OUT/agentws.toml` and `OUT/.agentscope/workspace/` with AGENTS.md,
//! MEMORY.md, knowledge/, skills/<name>/SKILL.md (5–15 KB each, frontmatter with metadata, varied
//! Markdown), subagents/<id>.md, tools.json (one MCP server per `--mcp-servers`) and one per-user
//! override folder per `--users` (AGENTS.md, three skills, two subagents).
//!
//! Only files that `agentws check` reads are written (no references/ or scripts/), so a `cat` of
//! every generated file reads exactly the bytes the checker reads. The output is a pure function of
//! the arguments (a tiny PRNG, no clock, no environment) and its size is linear in each count.
//! Depends on the standard library only: it must not use the agentws library, whose behaviour it
//! is used to measure.

use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

struct Args {
    out: PathBuf,
    skills: usize,
    subagents: usize,
    users: usize,
    mcp_servers: usize,
    seed: u64,
}

const USAGE: &str =
    "usage: genws OUT [--skills N] [--subagents N] [--users N] [--mcp-servers N] [--seed N]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        out: PathBuf::new(),
        skills: 10_000,
        subagents: 1_000,
        users: 100,
        mcp_servers: 200,
        seed: 42,
    };
    let mut out = None;
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a number\n{USAGE}"))
        };
        match arg.as_str() {
            "--skills" => args.skills = number("--skills")? as usize,
            "--subagents" => args.subagents = number("--subagents")? as usize,
            "--users" => args.users = number("--users")? as usize,
            "--mcp-servers" => args.mcp_servers = number("--mcp-servers")? as usize,
            "--seed" => args.seed = number("--seed")?,
            "-h" | "--help" => return Err(USAGE.to_string()),
            other if other.starts_with('-') => {
                return Err(format!("unknown option {other}\n{USAGE}"))
            }
            other if out.is_none() => out = Some(PathBuf::from(other)),
            other => return Err(format!("unexpected argument {other}\n{USAGE}")),
        }
    }
    args.out = out.ok_or_else(|| USAGE.to_string())?;
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match generate(&args) {
        Ok(stats) => {
            println!(
                "wrote {} files, {} bytes, to {}",
                stats.files,
                stats.bytes,
                args.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("genws: {err}");
            ExitCode::FAILURE
        }
    }
}

/// SplitMix64: tiny, fast, good enough to vary text; the same seed gives the same workspace.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// An independent stream for item `index`, so item N does not depend on how much text the
    /// items before it consumed.
    fn fork(seed: u64, kind: u64, index: usize) -> Rng {
        let mut rng = Rng(seed ^ kind.wrapping_mul(0xA24B_AED4_963E_E407) ^ index as u64);
        rng.next();
        rng
    }
}

const DOMAINS: &[&str] = &[
    "billing",
    "routing",
    "tracking",
    "invoices",
    "payroll",
    "support",
    "security",
    "analytics",
    "onboarding",
    "inventory",
    "shipping",
    "pricing",
    "search",
    "catalog",
    "compliance",
    "marketing",
    "reporting",
    "kubernetes",
    "postgres",
    "kafka",
    "frontend",
    "mobile",
    "ml",
    "finance",
];
const OBJECTS: &[&str] = &[
    "report",
    "review",
    "migration",
    "audit",
    "export",
    "import",
    "forecast",
    "summary",
    "triage",
    "checklist",
    "runbook",
    "dashboard",
    "release",
    "backfill",
    "rollout",
    "alert",
    "contract",
    "schema",
    "template",
    "cleanup",
];
const VERBS: &[&str] = &[
    "Prepare",
    "Review",
    "Summarise",
    "Validate",
    "Draft",
    "Analyse",
    "Plan",
    "Check",
    "Explain",
    "Reconcile",
    "Estimate",
    "Document",
];
const THINGS: &[&str] = &[
    "the weekly numbers",
    "a pull request",
    "the tenant's upload",
    "a production incident",
    "the quarterly plan",
    "a database change",
    "the release candidate",
    "an API contract",
    "customer feedback",
    "the on-call handover",
    "a vendor agreement",
    "the cost report",
];
const TOOLS: &[&str] = &[
    "read_file",
    "grep_files",
    "glob_files",
    "list_files",
    "web_fetch",
    "web_search",
    "memory_search",
];
const LICENSES: &[&str] = &["Apache-2.0", "MIT", "CC-BY-4.0", "BSD-3-Clause"];
const TEAMS: &[&str] = &[
    "platform",
    "sre",
    "data",
    "portal",
    "billing",
    "security",
    "people",
    "legal-ops",
    "support",
];
const SENTENCES: &[&str] = &[
    "Start from the data the requester already has and confirm the time window before doing anything else.",
    "Write down every assumption next to the result so that a reviewer can challenge it.",
    "Prefer the smallest change that solves the problem; large rewrites hide regressions.",
    "When two sources disagree, report both values and say which one you trust and why.",
    "Numbers without units are ambiguous: always name the unit and the time zone.",
    "Keep the output short enough to read on a phone, and link to the details instead of pasting them.",
    "If a step needs access you do not have, say so and give the exact command someone else can run.",
    "Check the result against last week's figure; a change above ten percent needs an explanation.",
    "Never include secrets, tokens or personal data in the answer, even when they appear in the input.",
    "Group findings by severity so that the blocking ones are read first.",
    "Quote file paths with line numbers so that every finding can be verified in one click.",
    "Ask for clarification when the request mixes two goals; answering both at once rarely helps.",
    "Record the decision and its reason in the ticket so the next person does not repeat the analysis.",
    "Treat empty input as a valid case and say explicitly that nothing was found.",
];
const CJK: &[&str] = &[
    "注意：请先确认时间范围和时区，再开始分析数据。",
    "结果中的每个数字都必须注明单位，例如毫秒、千克或欧元。",
    "如果两个数据来源不一致，请同时列出两个数值并说明原因。",
    "注意：時間帯とタイムゾーンを最初に確認してください。",
    "結論を先に書き、詳細はリンクで示してください。",
    "不明な点がある場合は、推測せずに確認してください。",
];
const CODE_BLOCKS: &[&str] = &[
    "```sql\nSELECT tenant_id, count(*) AS shipments, sum(weight_kg) AS total_kg\nFROM shipments\nWHERE created_at >= now() - interval '7 days'\nGROUP BY tenant_id\nORDER BY shipments DESC\nLIMIT 20;\n```\n",
    "```bash\nkubectl -n platform get pods -l app=worker -o wide\nkubectl -n platform logs deploy/worker --since=30m | grep -c ERROR\n```\n",
    "```python\nfrom decimal import Decimal, ROUND_HALF_EVEN\n\n\ndef round_money(value: Decimal) -> Decimal:\n    return value.quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_EVEN)\n```\n",
    "```rust\nfn parse_weight(input: &str) -> Result<u32, ParseError> {\n    let grams = input.trim().strip_suffix(\"g\").ok_or(ParseError::MissingUnit)?;\n    grams.parse().map_err(ParseError::NotANumber)\n}\n```\n",
    "```yaml\nalert: HighErrorRate\nexpr: sum(rate(http_requests_total{code=~\"5..\"}[5m])) / sum(rate(http_requests_total[5m])) > 0.02\nfor: 5m\nlabels:\n  severity: page\n```\n",
    "```json\n{\n  \"type\": \"https://api.example.com/problems/invalid-window\",\n  \"title\": \"Time window is empty\",\n  \"status\": 422\n}\n```\n",
    "```typescript\nexport function formatPrice(amount: string, currency: string, locale = 'en-GB'): string {\n  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(Number(amount));\n}\n```\n",
];

fn skill_name(domain: &str, object: &str, index: usize) -> String {
    format!("{domain}-{object}-{index:05}")
}

/// Appends Markdown sections to `out` until it holds at least `target` bytes.
fn markdown_body(rng: &mut Rng, out: &mut String, title: &str, target: usize) {
    let _ = writeln!(out, "# {title}\n");
    paragraph(rng, out, 3);
    let mut section = 0;
    while out.len() < target {
        section += 1;
        match rng.below(6) {
            0 => {
                let _ = writeln!(out, "## Steps ({section})\n");
                for step in 1..=rng.range(4, 8) {
                    let _ = writeln!(out, "{step}. {}", rng.pick(SENTENCES));
                }
                out.push('\n');
            }
            1 => {
                let _ = writeln!(out, "## Reference table ({section})\n");
                out.push_str("| Case | What to do | Owner |\n|---|---|---|\n");
                for _ in 0..rng.range(3, 7) {
                    let _ = writeln!(
                        out,
                        "| {} {} | {} | team-{} |",
                        rng.pick(DOMAINS),
                        rng.pick(OBJECTS),
                        rng.pick(SENTENCES),
                        rng.pick(TEAMS)
                    );
                }
                out.push('\n');
            }
            2 => {
                let _ = writeln!(out, "## Example ({section})\n");
                paragraph(rng, out, 1);
                out.push_str(rng.pick(CODE_BLOCKS));
                out.push('\n');
            }
            3 => {
                let _ = writeln!(out, "## Checklist ({section})\n");
                for _ in 0..rng.range(3, 6) {
                    let _ = writeln!(out, "- [ ] {}", rng.pick(SENTENCES));
                }
                out.push('\n');
            }
            4 => {
                let _ = writeln!(out, "## Notes ({section})\n");
                let sentences = rng.range(2, 4);
                paragraph(rng, out, sentences);
                if rng.chance(30) {
                    let _ = writeln!(out, "> {}\n", rng.pick(CJK));
                }
            }
            _ => {
                let _ = writeln!(out, "## Pitfalls ({section})\n");
                for _ in 0..rng.range(2, 5) {
                    let _ = writeln!(
                        out,
                        "- **{} {}**: {}",
                        rng.pick(DOMAINS),
                        rng.pick(OBJECTS),
                        rng.pick(SENTENCES)
                    );
                }
                out.push('\n');
            }
        }
    }
}

fn paragraph(rng: &mut Rng, out: &mut String, sentences: usize) {
    for i in 0..sentences.max(1) {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(rng.pick(SENTENCES));
    }
    out.push_str("\n\n");
}

fn skill_md(rng: &mut Rng, name: &str, domain: &str, object: &str) -> String {
    let target = rng.range(5 * 1024, 14 * 1024);
    let mut text = String::with_capacity(target + 1024);
    let verb = rng.pick(VERBS);
    let thing = rng.pick(THINGS);
    let mut tools: Vec<&str> = (0..rng.range(1, 4)).map(|_| rng.pick(TOOLS)).collect();
    tools.sort_unstable();
    tools.dedup();
    let _ = write!(
        text,
        "---\nname: {name}\ndescription: {verb} {thing} for the {domain} team ({object}). Use when someone asks for this kind of {domain} {object} or needs one checked before it is shared.\nlicense: {}\nmetadata:\n  author: team-{}\n  version: \"{}.{}.{}\"\n  category: {domain}\n",
        rng.pick(LICENSES),
        rng.pick(TEAMS),
        rng.range(0, 3),
        rng.range(0, 20),
        rng.range(0, 9),
    );
    if rng.chance(15) {
        let _ = writeln!(text, "  language: {}", rng.pick(&["zh-CN", "ja-JP"]));
    }
    let _ = writeln!(text, "allowed-tools: {}\n---\n", tools.join(" "));
    markdown_body(
        rng,
        &mut text,
        &format!("{} {}", capitalise(domain), object),
        target,
    );
    text
}

fn subagent_md(rng: &mut Rng, skills: &[String]) -> String {
    let mut text = String::with_capacity(2048);
    let _ = write!(
        text,
        "---\ndescription: {} {} and report the result to the main agent.\n",
        rng.pick(VERBS),
        rng.pick(THINGS)
    );
    if rng.chance(60) {
        text.push_str("model: qwen3-max\n");
    }
    let _ = writeln!(text, "steps: {}", rng.range(8, 30));
    let mode = if rng.chance(50) { "shared" } else { "isolated" };
    let _ = writeln!(text, "workspace:\n  mode: {mode}");
    if !skills.is_empty() {
        let mut picked: Vec<&str> = (0..rng.range(1, 4))
            .map(|_| skills[rng.below(skills.len())].as_str())
            .collect();
        picked.sort_unstable();
        picked.dedup();
        let _ = writeln!(text, "skills: [{}]", picked.join(", "));
    }
    text.push_str("---\n\n");
    let _ = writeln!(
        text,
        "You are a focused helper of the main agent for the {} team.\n",
        rng.pick(DOMAINS)
    );
    for step in 1..=rng.range(3, 6) {
        let _ = writeln!(text, "{step}. {}", rng.pick(SENTENCES));
    }
    text.push('\n');
    paragraph(rng, &mut text, 2);
    text
}

fn agents_md(rng: &mut Rng, who: &str) -> String {
    let mut text = String::with_capacity(4096);
    let _ = writeln!(
        text,
        "# Atlas — assistant of {who}\n\nYou are Atlas, the assistant of {who}. You help with reviews, \
operations, data questions and writing.\n\n## How you work\n"
    );
    for _ in 0..6 {
        let _ = writeln!(text, "- {}", rng.pick(SENTENCES));
    }
    text.push_str("\n## Tone\n\n");
    paragraph(rng, &mut text, 3);
    text
}

fn tools_json(rng: &mut Rng, servers: usize) -> String {
    let mut text = String::with_capacity(servers * 400 + 512);
    text.push_str("{\n  \"// description\": \"Generated benchmark workspace: read-only file tools and many MCP servers.\",\n");
    text.push_str("  \"deny\": [\"execute\", \"write_file\", \"edit_file\"],\n  \"mcpServers\": {");
    for i in 0..servers {
        if i > 0 {
            text.push(',');
        }
        let domain = rng.pick(DOMAINS);
        let _ = write!(text, "\n    \"{domain}-{i:03}\": {{\n");
        match rng.below(3) {
            0 => {
                let _ = write!(
                    text,
                    "      \"transport\": \"stdio\",\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@example/{domain}-mcp@1.{}.0\"],\n      \"env\": {{\"REGION\": \"eu-west-1\"}},\n",
                    rng.range(0, 9)
                );
            }
            1 => {
                let _ = write!(
                    text,
                    "      \"transport\": \"streamable-http\",\n      \"url\": \"https://mcp.example.com/{domain}/{i}\",\n      \"headers\": {{\"X-Client\": \"atlas\"}},\n"
                );
            }
            _ => {
                let _ = write!(
                    text,
                    "      \"transport\": \"sse\",\n      \"url\": \"https://sse.example.com/{domain}/{i}/sse\",\n      \"queryParams\": {{\"team\": \"{}\"}},\n",
                    rng.pick(TEAMS)
                );
            }
        }
        let _ = write!(
            text,
            "      \"enableTools\": [\"{domain}_{i}_search\", \"{domain}_{i}_get\"],\n      \"timeout\": \"PT{}S\"\n    }}",
            rng.range(10, 60)
        );
    }
    text.push_str("\n  }\n}\n");
    text
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[derive(Default)]
struct Stats {
    files: usize,
    bytes: usize,
}

impl Stats {
    fn write(&mut self, path: &Path, text: &str) -> io::Result<()> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let mut file = io::BufWriter::new(fs::File::create(path)?);
        file.write_all(text.as_bytes())?;
        file.flush()?;
        self.files += 1;
        self.bytes += text.len();
        Ok(())
    }
}

const KIND_SKILL: u64 = 1;
const KIND_SUBAGENT: u64 = 2;
const KIND_USER: u64 = 3;
const KIND_MISC: u64 = 4;

fn generate(args: &Args) -> io::Result<Stats> {
    let mut stats = Stats::default();
    let ws = args.out.join(".agentscope/workspace");
    fs::create_dir_all(&ws)?;
    stats.write(
        &args.out.join("agentws.toml"),
        "workspace = \".agentscope/workspace\"\n\n[agent]\nname = \"atlas\"\nsystem_prompt = \"You are Atlas, a careful engineering assistant.\"\n\n[isolation]\nscope = \"user\"\n",
    )?;
    let mut misc = Rng::fork(args.seed, KIND_MISC, 0);
    stats.write(
        &ws.join("AGENTS.md"),
        &agents_md(&mut misc, "the whole team"),
    )?;
    stats.write(
        &ws.join("MEMORY.md"),
        "# Long-term memory\n\n- Reports are sorted by total, not by date.\n- The on-call handover is on Monday at 09:00 CET.\n",
    )?;
    stats.write(
        &ws.join("knowledge/KNOWLEDGE.md"),
        "# Knowledge\n\nDomain notes live next to this file; skills describe the procedures.\n",
    )?;
    stats.write(
        &ws.join("tools.json"),
        &tools_json(&mut misc, args.mcp_servers),
    )?;

    let mut names = Vec::with_capacity(args.skills);
    for i in 0..args.skills {
        let mut rng = Rng::fork(args.seed, KIND_SKILL, i);
        let domain = rng.pick(DOMAINS);
        let object = rng.pick(OBJECTS);
        let name = skill_name(domain, object, i);
        let text = skill_md(&mut rng, &name, domain, object);
        stats.write(&ws.join("skills").join(&name).join("SKILL.md"), &text)?;
        names.push(name);
    }
    for i in 0..args.subagents {
        let mut rng = Rng::fork(args.seed, KIND_SUBAGENT, i);
        let text = subagent_md(&mut rng, &names);
        stats.write(&ws.join(format!("subagents/agent-{i:05}.md")), &text)?;
    }
    for u in 0..args.users {
        let mut rng = Rng::fork(args.seed, KIND_USER, u);
        let user = format!("user-{u:03}");
        let dir = ws.join(&user);
        stats.write(&dir.join("AGENTS.md"), &agents_md(&mut rng, &user))?;
        let mut own = Vec::new();
        for k in 0..3 {
            let domain = rng.pick(DOMAINS);
            let object = rng.pick(OBJECTS);
            let name = format!("{user}-{domain}-{object}-{k}");
            let text = skill_md(&mut rng, &name, domain, object);
            stats.write(&dir.join("skills").join(&name).join("SKILL.md"), &text)?;
            own.push(name);
        }
        for k in 0..2 {
            let text = subagent_md(&mut rng, &own);
            stats.write(&dir.join(format!("subagents/{user}-helper-{k}.md")), &text)?;
        }
    }
    Ok(stats)
}
