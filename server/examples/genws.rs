//! Generates a large AgentScope project shaped like real ones, for benchmarking `agentws check`
//! and `agentws serve` (docs/benchmarks.md).
//!
//! ```sh
//! cargo run --release --example genws -- OUT [--skills 10000] [--subagents 1000] [--users 100]
//!     [--mcp-servers 200] [--user-skills 4] [--user-subagents 3] [--knowledge 50]
//!     [--resources 57] [--defects 10] [--no-context-file] [--seed 42] [--classic]
//! ```
//!
//! OUT becomes a project folder: `OUT/agentws.toml` (with one additional context file, `SOUL.md`)
//! and `OUT/.agentscope/workspace/` with AGENTS.md, MEMORY.md, SOUL.md, `--knowledge` files in
//! knowledge/, skills/<name>/SKILL.md (5–14 KB each, frontmatter with metadata, varied Markdown),
//! of which `--resources` percent also hold a `references/` Markdown file and a `scripts/` file
//! (the SKILL.md links to both; 8–28 KB and 4–10 KB), subagents/<id>.md, tools.json (one MCP server
//! per `--mcp-servers`) and one per-user folder per `--users` (AGENTS.md, `--user-skills` skills
//! with resources as above, `--user-subagents` subagents). The defaults give the large project
//! of docs/benchmarks.md (its size is there).
//!
//! Seeded defects: `--defects` per mille of the skills, subagents, per-user skills and per-user
//! AGENTS.md files (and at least one file for each defect of that kind of file) carry one defect
//! each, taken in turn from the list below, so that every rule a single file can break is met
//! (each defect names the rule it is for): a SKILL.md without frontmatter, with a BOM, a blank
//! first line, an unclosed frontmatter, no name, no description, no body, invalid YAML, a name in
//! capitals, a description over 1,024 characters, a name with spaces, a YAML 1.1 value, a
//! non-string key, a `skill.md`, a nested skill or one below `_drafts/`, a name another skill
//! has, a tool tools.json denies mentioned; a per-user skill named unlike its folder or
//! overriding a shared one; a subagent for each SA rule a file shows alone (SA007, nested, among
//! them) and for XR001, XR002, XR004, XR011 and XR015; a per-user AGENTS.md blank or not UTF-8;
//! and tools.json denying an unknown tool. A subagent whose `workspace.path` names a folder
//! outside the scanned trees (SA011) also makes the checker read that folder's AGENTS.md, as it
//! does for real projects.
//!
//! `--classic` gives the shape of the earlier benchmarks (docs/benchmarks.md),
//! byte for byte: no resources, three skills and two subagents per user, one knowledge file, no
//! additional context file, no defects. The output is a pure function of the arguments (a tiny
//! PRNG, no clock, no environment) and its size is linear in each count. Depends on the standard
//! library only: it must not use the agentws library, whose behaviour it is used to measure.

use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub struct Args {
    pub out: PathBuf,
    pub skills: usize,
    pub subagents: usize,
    pub users: usize,
    pub mcp_servers: usize,
    pub user_skills: usize,
    pub user_subagents: usize,
    pub knowledge: usize,
    /// Percent of the skills that hold a `references/` and a `scripts/` file.
    pub resources: usize,
    /// Per mille of the files of each kind that carry one seeded defect.
    pub defects: usize,
    pub context_file: bool,
    pub seed: u64,
}

impl Args {
    /// The large benchmark project, written to `out`.
    pub fn new(out: PathBuf) -> Args {
        Args {
            out,
            skills: 10_000,
            subagents: 1_000,
            users: 100,
            mcp_servers: 200,
            user_skills: 4,
            user_subagents: 3,
            knowledge: 50,
            resources: 57,
            defects: 10,
            context_file: true,
            seed: 42,
        }
    }

    /// The shape of the earlier benchmarks (`--classic`), the counts left as they are.
    fn classic(&mut self) {
        self.user_skills = 3;
        self.user_subagents = 2;
        self.knowledge = 1;
        self.resources = 0;
        self.defects = 0;
        self.context_file = false;
    }
}

const USAGE: &str = "usage: genws OUT [--skills N] [--subagents N] [--users N] [--mcp-servers N] \
[--user-skills N] [--user-subagents N] [--knowledge N] [--resources PERCENT] [--defects PER-MILLE] \
[--no-context-file] [--seed N] [--classic]";

fn parse_args() -> Result<Args, String> {
    let mut args = Args::new(PathBuf::new());
    let mut classic = false;
    let mut out = None;
    let mut counts: Vec<(String, u64)> = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--classic" => classic = true,
            "--no-context-file" => args.context_file = false,
            "-h" | "--help" => return Err(USAGE.to_string()),
            name @ ("--skills" | "--subagents" | "--users" | "--mcp-servers" | "--user-skills"
            | "--user-subagents" | "--knowledge" | "--resources" | "--defects"
            | "--seed") => {
                let value = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| format!("{name} needs a number\n{USAGE}"))?;
                counts.push((name.to_string(), value));
            }
            other if other.starts_with('-') => {
                return Err(format!("unknown option {other}\n{USAGE}"))
            }
            other if out.is_none() => out = Some(PathBuf::from(other)),
            other => return Err(format!("unexpected argument {other}\n{USAGE}")),
        }
    }
    // `--classic` first, so that a count given with it still applies.
    if classic {
        args.classic();
    }
    for (name, value) in counts {
        let n = value as usize;
        match name.as_str() {
            "--skills" => args.skills = n,
            "--subagents" => args.subagents = n,
            "--users" => args.users = n,
            "--mcp-servers" => args.mcp_servers = n,
            "--user-skills" => args.user_skills = n,
            "--user-subagents" => args.user_subagents = n,
            "--knowledge" => args.knowledge = n,
            "--resources" => args.resources = n.min(100),
            "--defects" => args.defects = n.min(1000),
            _ => args.seed = value,
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

const SCRIPT_LINES: &[&str] = &[
    "import csv\nimport json\nimport sys\nfrom pathlib import Path\n",
    "def load_rows(path):\n    with open(path, newline=\"\", encoding=\"utf-8\") as handle:\n        return list(csv.DictReader(handle))\n",
    "def total(rows, field):\n    return sum(float(row[field] or 0) for row in rows)\n",
    "def group_by(rows, key):\n    groups = {}\n    for row in rows:\n        groups.setdefault(row[key], []).append(row)\n    return groups\n",
    "def report(groups, field):\n    for name, rows in sorted(groups.items()):\n        print(f\"{name}\\t{len(rows)}\\t{total(rows, field):.2f}\")\n",
    "def check_window(start, end):\n    if end <= start:\n        raise SystemExit(\"the time window is empty\")\n    return end - start\n",
    "def main(argv):\n    rows = load_rows(Path(argv[1]))\n    report(group_by(rows, \"tenant_id\"), \"weight_kg\")\n    return 0\n",
    "if __name__ == \"__main__\":\n    sys.exit(main(sys.argv))\n",
];

/// A skill's `references/` Markdown file and `scripts/` file: (file name, text) each.
fn resources(rng: &mut Rng, domain: &str, object: &str) -> [(String, String); 2] {
    let reference = format!("{domain}-{object}-guide.md");
    let mut guide = String::new();
    let size = rng.range(8 * 1024, 28 * 1024);
    markdown_body(
        rng,
        &mut guide,
        &format!("{} {object} guide", capitalise(domain)),
        size,
    );
    let script = format!("{object}_{}.py", rng.pick(&["report", "check", "export"]));
    let size = rng.range(4 * 1024, 10 * 1024);
    let mut code = format!(
        "#!/usr/bin/env python3\n\"\"\"{} {object}: {}\"\"\"\n\n",
        capitalise(domain),
        rng.pick(SENTENCES)
    );
    while code.len() < size {
        code.push_str(rng.pick(SCRIPT_LINES));
        let _ = writeln!(code, "\n# {}\n", rng.pick(SENTENCES));
    }
    [(reference, guide), (script, code)]
}

/// The line a SKILL.md with resources ends with, naming them.
fn resources_line(files: &[(String, String); 2]) -> String {
    format!(
        "\n## Resources\n\nRead [the guide](references/{}) first, then run `python3 scripts/{} input.csv`.\n",
        files[0].0, files[1].0
    )
}

/// One seeded defect; the rule it is for in its name's comment.
#[derive(Clone, Copy, Debug)]
enum Defect {
    // A shared SKILL.md.
    NoFrontmatter,       // SK001
    Bom,                 // SK002
    LeadingBlank,        // SK003
    Unclosed,            // SK005
    NoName,              // SK007
    NoDescription,       // SK009
    NoBody,              // SK011
    InvalidYaml,         // SK013
    NameInCapitals,      // SK019
    LongDescription,     // SK020
    NameWithSpaces,      // SK022
    Yaml11Value,         // SK023
    NonStringKey,        // SK024
    LowerCaseFile,       // SK030
    Nested,              // SK017
    Hidden,              // SK018 (a folder starting with `_`)
    NameOfAnother,       // XR005 / XR012
    DeniedToolMentioned, // XR010
    // A per-user SKILL.md.
    NameNotFolder,   // SK016
    OverridesShared, // XR006
    // A shared subagent spec.
    SpecNoFrontmatter,  // SA001
    SpecUnclosed,       // SA002
    SpecInvalidYaml,    // SA003
    SpecNoDescription,  // SA004
    SpecBadId,          // SA005
    GeneralPurpose,     // SA006
    NameKey,            // SA008
    SpecNested,         // SA007
    WorkspaceNotMap,    // SA009
    WorkspaceMode,      // SA010
    BodyDiscarded,      // SA011 (and a folder outside the scanned trees)
    Mode,               // SA012
    Steps,              // SA013
    Temperature,        // SA014
    BooleanString,      // SA015
    UnknownKey,         // SA016
    MaxIters,           // SA017
    SpecBom,            // SA018
    UpperCaseExtension, // SA026
    UnknownTool,        // XR001
    RemovedMcpTool,     // XR002
    RemovedBuiltin,     // XR015
    UnknownSkill,       // XR004
    OtherUsersSkill,    // XR011
    // A per-user AGENTS.md.
    Blank,   // WS003
    NotUtf8, // WS004
}

const SKILL_DEFECTS: &[Defect] = &[
    Defect::NoFrontmatter,
    Defect::Bom,
    Defect::LeadingBlank,
    Defect::Unclosed,
    Defect::NoName,
    Defect::NoDescription,
    Defect::NoBody,
    Defect::InvalidYaml,
    Defect::NameInCapitals,
    Defect::LongDescription,
    Defect::NameWithSpaces,
    Defect::Yaml11Value,
    Defect::NonStringKey,
    Defect::LowerCaseFile,
    Defect::Nested,
    Defect::Hidden,
    Defect::NameOfAnother,
    Defect::DeniedToolMentioned,
];
const USER_SKILL_DEFECTS: &[Defect] = &[Defect::NameNotFolder, Defect::OverridesShared];
const SUBAGENT_DEFECTS: &[Defect] = &[
    Defect::SpecNoFrontmatter,
    Defect::SpecUnclosed,
    Defect::SpecInvalidYaml,
    Defect::SpecNoDescription,
    Defect::SpecBadId,
    Defect::GeneralPurpose,
    Defect::NameKey,
    Defect::SpecNested,
    Defect::WorkspaceNotMap,
    Defect::WorkspaceMode,
    Defect::BodyDiscarded,
    Defect::Mode,
    Defect::Steps,
    Defect::Temperature,
    Defect::BooleanString,
    Defect::UnknownKey,
    Defect::MaxIters,
    Defect::SpecBom,
    Defect::UpperCaseExtension,
    Defect::UnknownTool,
    Defect::RemovedMcpTool,
    Defect::RemovedBuiltin,
    Defect::UnknownSkill,
    Defect::OtherUsersSkill,
];
const USER_AGENTS_DEFECTS: &[Defect] = &[Defect::Blank, Defect::NotUtf8];

/// Which of `n` files carry a defect of `kinds`: `per_mille` of them, at least one per kind (as
/// many as there are files), spread evenly, each taking the next kind in turn.
fn plan(n: usize, per_mille: usize, kinds: &[Defect]) -> Vec<Option<Defect>> {
    let mut planned = vec![None; n];
    if per_mille == 0 || n == 0 {
        return planned;
    }
    let count = (n * per_mille / 1000).max(kinds.len()).min(n);
    for k in 0..count {
        // Offset by half a step so that neither the first file nor the last carries one.
        planned[(2 * k + 1) * n / (2 * count)] = Some(kinds[k % kinds.len()]);
    }
    planned
}

/// The frontmatter's closing line in a generated text (the first `---` after the opening one).
const CLOSE: &str = "\n---\n";

/// `text` with its `key:` line (the first) removed.
fn without_line(text: &str, key: &str) -> String {
    let Some(start) = text.find(&format!("\n{key}:")) else {
        return text.to_string();
    };
    let end = text[start + 1..]
        .find('\n')
        .map_or(text.len(), |e| start + 1 + e);
    format!("{}{}", &text[..start], &text[end..])
}

/// `text` with `line` added as the frontmatter's last line.
fn with_line(text: &str, line: &str) -> String {
    text.replacen(CLOSE, &format!("\n{line}{CLOSE}"), 1)
}

/// A SKILL.md's text with its defect; `name` is its name, `other` another skill's.
fn skill_defect(defect: Defect, text: &str, name: &str, other: &str) -> String {
    let body_start = text.find(CLOSE).map_or(0, |i| i + CLOSE.len());
    match defect {
        Defect::NoFrontmatter => text[body_start..].to_string(),
        Defect::Bom => format!("\u{feff}{text}"),
        Defect::LeadingBlank => format!("\n{text}"),
        Defect::Unclosed => text.replacen(CLOSE, "\n\n", 1),
        Defect::NoName => without_line(text, "name"),
        Defect::NoDescription => without_line(text, "description"),
        Defect::NoBody => text[..body_start].to_string(),
        Defect::InvalidYaml => text.replacen("\ndescription: ", "\ndescription: Note: ", 1),
        Defect::NameInCapitals => text.replacen(
            &format!("\nname: {name}\n"),
            &format!("\nname: {}\n", name.to_uppercase()),
            1,
        ),
        Defect::LongDescription => {
            let long = SENTENCES.join(" ");
            text.replacen("\nlicense: ", &format!(" {long}\nlicense: "), 1)
        }
        Defect::NameWithSpaces => text.replacen(
            &format!("\nname: {name}\n"),
            &format!("\nname: {}\n", name.replace('-', " ")),
            1,
        ),
        Defect::Yaml11Value => with_line(text, "version: 1.10"),
        Defect::NonStringKey => with_line(text, "on: upload"),
        Defect::NameOfAnother | Defect::OverridesShared => text.replacen(
            &format!("\nname: {name}\n"),
            &format!("\nname: {other}\n"),
            1,
        ),
        Defect::NameNotFolder => text.replacen(
            &format!("\nname: {name}\n"),
            &format!("\nname: {name}-v2\n"),
            1,
        ),
        Defect::DeniedToolMentioned => {
            format!("{text}\nRun the tests with `execute` before sharing the result.\n")
        }
        // Placed elsewhere, text unchanged.
        _ => text.to_string(),
    }
}

/// Where a shared skill's SKILL.md goes, its defect considered.
fn skill_path(skills: &Path, name: &str, defect: Option<Defect>) -> PathBuf {
    match defect {
        Some(Defect::LowerCaseFile) => skills.join(name).join("skill.md"),
        Some(Defect::Nested) => skills.join(name).join("drafts").join(name).join("SKILL.md"),
        Some(Defect::Hidden) => skills.join("_drafts").join(name).join("SKILL.md"),
        _ => skills.join(name).join("SKILL.md"),
    }
}

/// A subagent spec's text with its defect, and its file name. `user_skill` is a skill only a
/// per-user folder has; `denied_mcp` an MCP tool tools.json denies; `home` the folder a
/// `workspace.path` names.
fn subagent_defect(
    defect: Defect,
    text: &str,
    id: &str,
    user_skill: &str,
    denied_mcp: &str,
    home: &str,
) -> (String, String) {
    let md = format!("{id}.md");
    let body_start = text.find(CLOSE).map_or(0, |i| i + CLOSE.len());
    let tools = |tools: &str| with_line(text, &format!("tools: [{tools}]"));
    let workspace = |lines: &str| {
        with_line(
            &without_line(&without_line(text, "workspace"), "  mode"),
            lines,
        )
    };
    match defect {
        Defect::SpecNoFrontmatter => (text[body_start..].to_string(), md),
        Defect::SpecUnclosed => (text.replacen(CLOSE, "\n\n", 1), md),
        Defect::SpecInvalidYaml => (text.replacen("description: ", "description: Note: ", 1), md),
        Defect::SpecNoDescription => (without_line(text, "description"), md),
        Defect::SpecBadId => (text.to_string(), format!("{} helper.md", id)),
        Defect::GeneralPurpose => (text.to_string(), "general-purpose.md".to_string()),
        Defect::NameKey => (with_line(text, &format!("name: {id}-renamed")), md),
        Defect::SpecNested => (text.to_string(), format!("team/{md}")),
        Defect::WorkspaceNotMap => (workspace("workspace: shared"), md),
        Defect::WorkspaceMode => (workspace("workspace:\n  mode: private"), md),
        Defect::BodyDiscarded => (workspace(&format!("workspace:\n  path: {home}")), md),
        Defect::Mode => (with_line(text, "mode: background"), md),
        Defect::Steps => (with_line(&without_line(text, "steps"), "steps: many"), md),
        Defect::Temperature => (with_line(text, "temperature: 7"), md),
        Defect::BooleanString => (with_line(text, "hidden: \"yes\""), md),
        Defect::UnknownKey => (
            with_line(text, "url: https://agents.example.com/helper"),
            md,
        ),
        Defect::MaxIters => (with_line(&without_line(text, "steps"), "maxIters: 15"), md),
        Defect::SpecBom => (format!("\u{feff}{text}"), md),
        Defect::UpperCaseExtension => (text.to_string(), format!("{id}.MD")),
        Defect::UnknownTool => (tools("read_file, no_such_tool"), md),
        Defect::RemovedMcpTool => (tools(&format!("read_file, {denied_mcp}")), md),
        Defect::RemovedBuiltin => (tools("read_file, write_file"), md),
        Defect::UnknownSkill => (
            with_line(&without_line(text, "skills"), "skills: [no-such-skill]"),
            md,
        ),
        Defect::OtherUsersSkill => (
            with_line(
                &without_line(text, "skills"),
                &format!("skills: [{user_skill}]"),
            ),
            md,
        ),
        _ => (text.to_string(), md),
    }
}

#[derive(Default)]
pub struct Stats {
    pub files: usize,
    pub bytes: usize,
}

impl Stats {
    fn write(&mut self, path: &Path, text: &str) -> io::Result<()> {
        self.write_bytes(path, text.as_bytes())
    }

    fn write_bytes(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        let mut file = io::BufWriter::new(fs::File::create(path)?);
        file.write_all(bytes)?;
        file.flush()?;
        self.files += 1;
        self.bytes += bytes.len();
        Ok(())
    }

    /// A skill's SKILL.md, and its resources when it has some (`resources` percent of skills,
    /// decided by its own stream, so that the text of every skill stays what it was without).
    fn write_skill(
        &mut self,
        file: &Path,
        text: String,
        resources: Option<[(String, String); 2]>,
    ) -> io::Result<()> {
        let dir = file.parent().unwrap_or(Path::new("."));
        match resources {
            Some(files) => {
                self.write(file, &(text + &resources_line(&files)))?;
                let [(reference, guide), (script, code)] = files;
                self.write(&dir.join("references").join(reference), &guide)?;
                self.write(&dir.join("scripts").join(script), &code)
            }
            None => self.write(file, &text),
        }
    }
}

const KIND_SKILL: u64 = 1;
const KIND_SUBAGENT: u64 = 2;
const KIND_USER: u64 = 3;
const KIND_MISC: u64 = 4;
const KIND_RESOURCES: u64 = 5;
const KIND_KNOWLEDGE: u64 = 6;

/// The resources of skill `index` of stream `kind`, when it has some.
fn maybe_resources(
    args: &Args,
    kind: u64,
    index: usize,
    domain: &str,
    object: &str,
) -> Option<[(String, String); 2]> {
    let mut rng = Rng::fork(args.seed, KIND_RESOURCES ^ (kind << 8), index);
    rng.chance(args.resources)
        .then(|| resources(&mut rng, domain, object))
}

pub fn generate(args: &Args) -> io::Result<Stats> {
    let mut stats = Stats::default();
    let ws = args.out.join(".agentscope/workspace");
    fs::create_dir_all(&ws)?;
    let context = if args.context_file {
        "additional_context_files = [\"SOUL.md\"]\n"
    } else {
        ""
    };
    stats.write(
        &args.out.join("agentws.toml"),
        &format!("workspace = \".agentscope/workspace\"\n\n[agent]\nname = \"atlas\"\nsystem_prompt = \"You are Atlas, a careful engineering assistant.\"\n{context}\n[isolation]\nscope = \"user\"\n"),
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
    for k in 1..args.knowledge {
        let mut rng = Rng::fork(args.seed, KIND_KNOWLEDGE, k);
        let domain = rng.pick(DOMAINS);
        let mut text = String::new();
        let size = rng.range(2 * 1024, 8 * 1024);
        markdown_body(
            &mut rng,
            &mut text,
            &format!("{} notes", capitalise(domain)),
            size,
        );
        stats.write(&ws.join(format!("knowledge/{domain}-{k:03}.md")), &text)?;
    }
    if args.context_file {
        let mut rng = Rng::fork(args.seed, KIND_MISC, 1);
        let mut text = String::from("# Soul\n\nWhat Atlas cares about, whoever asks.\n\n");
        paragraph(&mut rng, &mut text, 6);
        stats.write(&ws.join("SOUL.md"), &text)?;
    }
    let mut tools = tools_json(&mut misc, args.mcp_servers);
    // The MCP tool tools.json denies, which a subagent with `RemovedMcpTool` lists.
    let enable = "\"enableTools\": [\"";
    let denied_mcp = tools
        .find(enable)
        .and_then(|at| {
            let name = &tools[at + enable.len()..];
            name.find('"').map(|end| name[..end].to_string())
        })
        .unwrap_or_default();
    if args.defects > 0 {
        // TJ020: a tool no server or built-in registers.
        tools = tools.replacen(
            "\"deny\": [",
            &format!("\"deny\": [\"exec\", \"{denied_mcp}\", "),
            1,
        );
    }
    stats.write(&ws.join("tools.json"), &tools)?;

    let skills = ws.join("skills");
    let defects = plan(args.skills, args.defects, SKILL_DEFECTS);
    let mut names = Vec::with_capacity(args.skills);
    for (i, defect) in defects.iter().enumerate() {
        let mut rng = Rng::fork(args.seed, KIND_SKILL, i);
        let domain = rng.pick(DOMAINS);
        let object = rng.pick(OBJECTS);
        let name = skill_name(domain, object, i);
        let mut text = skill_md(&mut rng, &name, domain, object);
        if let Some(defect) = *defect {
            let other = names.first().map_or("", String::as_str);
            text = skill_defect(defect, &text, &name, other);
        }
        let file = skill_path(&skills, &name, *defect);
        // A skill without a body keeps none: the resources' line would be one.
        let resources = maybe_resources(args, KIND_SKILL, i, domain, object)
            .filter(|_| !matches!(defect, Some(Defect::NoBody)));
        stats.write_skill(&file, text, resources)?;
        names.push(name);
    }
    // The first per-user skill's name, which a subagent with `OtherUsersSkill` lists: user 0's
    // stream replayed up to it.
    let user_skill = if args.users > 0 && args.user_skills > 0 {
        let mut rng = Rng::fork(args.seed, KIND_USER, 0);
        agents_md(&mut rng, "user-000");
        let (domain, object) = (rng.pick(DOMAINS), rng.pick(OBJECTS));
        format!("user-000-{domain}-{object}-0")
    } else {
        String::new()
    };
    let defects = plan(args.subagents, args.defects, SUBAGENT_DEFECTS);
    for (i, defect) in defects.iter().enumerate() {
        let mut rng = Rng::fork(args.seed, KIND_SUBAGENT, i);
        let text = subagent_md(&mut rng, &names);
        let id = format!("agent-{i:05}");
        let home = format!("homes/{id}");
        let (text, file) = match *defect {
            Some(defect) => subagent_defect(defect, &text, &id, &user_skill, &denied_mcp, &home),
            None => (text, format!("{id}.md")),
        };
        if matches!(defect, Some(Defect::BodyDiscarded)) {
            let mut rng = Rng::fork(args.seed, KIND_SUBAGENT ^ 0x100, i);
            stats.write(&ws.join(&home).join("AGENTS.md"), &agents_md(&mut rng, &id))?;
        }
        stats.write(&ws.join("subagents").join(file), &text)?;
    }
    let user_skill_defects = plan(
        args.users * args.user_skills,
        args.defects,
        USER_SKILL_DEFECTS,
    );
    let agents_defects = plan(args.users, args.defects, USER_AGENTS_DEFECTS);
    for u in 0..args.users {
        let mut rng = Rng::fork(args.seed, KIND_USER, u);
        let user = format!("user-{u:03}");
        let dir = ws.join(&user);
        let agents = agents_md(&mut rng, &user);
        match agents_defects[u] {
            Some(Defect::Blank) => stats.write(&dir.join("AGENTS.md"), "\n  \n")?,
            Some(_) => {
                let mut bytes = agents.into_bytes();
                bytes.extend_from_slice(b"\nCaf\xe9 au lait.\n");
                stats.write_bytes(&dir.join("AGENTS.md"), &bytes)?
            }
            None => stats.write(&dir.join("AGENTS.md"), &agents)?,
        }
        let mut own = Vec::new();
        for k in 0..args.user_skills {
            let domain = rng.pick(DOMAINS);
            let object = rng.pick(OBJECTS);
            let mut name = format!("{user}-{domain}-{object}-{k}");
            let mut text = skill_md(&mut rng, &name, domain, object);
            match user_skill_defects[u * args.user_skills + k] {
                Some(Defect::OverridesShared) if !names.is_empty() => {
                    let shared = &names[(u * 131 + k) % names.len()];
                    text = skill_defect(Defect::OverridesShared, &text, &name, shared);
                    name = shared.clone();
                }
                Some(defect) => text = skill_defect(defect, &text, &name, ""),
                None => {}
            }
            let folder = dir.join("skills").join(&name);
            let index = u * args.user_skills + k;
            let resources = maybe_resources(args, KIND_USER, index, domain, object);
            stats.write_skill(&folder.join("SKILL.md"), text, resources)?;
            own.push(name);
        }
        for k in 0..args.user_subagents {
            let text = subagent_md(&mut rng, &own);
            stats.write(&dir.join(format!("subagents/{user}-helper-{k}.md")), &text)?;
        }
    }
    Ok(stats)
}
