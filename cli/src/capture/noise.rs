//! What in a session is not a person's request, for both agents (docs/capture.md#items):
//! text the agent or its program put in the person's turn, helper calls the agent or a
//! plug-in made of it, bare replies, and the `<private>` spans a person keeps out of
//! memory.

/// First words of text in the person's turn that the person did not write: command
/// wrappers and their output, reminders, hooks, IDE context, notifications, interrupted
/// requests, injected instructions. Shown in the transcript, never a question or a title.
pub const NOT_WRITTEN: &[&str] = &[
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<command-contents>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<system-reminder>",
    "<user-prompt-submit-hook>",
    "<user-memory-input>",
    "<ide_opened_file>",
    "<ide_selection>",
    "<ide_diagnostics>",
    "<task-notification>",
    "<teammate-message",
    "<environment_context>",
    "<user_instructions>",
    "<turn_aborted>",
    "Caveat: The messages below were generated",
    "[Request interrupted by user",
    "[SYSTEM NOTIFICATION",
    "Unknown skill:",
    "# AGENTS.md instructions",
    // What the program printed, pasted or echoed back into the prompt.
    "Unknown slash command:",
    "Unknown command:",
    "Update available!",
    "Warning: apply_patch was requested via exec_command",
    "Claude AI usage limit reached",
    "✻ Welcome to Claude Code",
    // Codex's `/review` presets: the program's request, not the person's words.
    "Review the current code changes (staged, unstaged, and untracked files)",
    "Review the code changes against the base branch",
    "Review the code changes introduced by commit",
];

/// Words of the agents' own command lines and slash commands, typed as a prompt by
/// mistake (`usage`, `whoami`): no request to the agent.
const TYPED_COMMANDS: &[&str] = &[
    "usage",
    "whoami",
    "exit",
    "quit",
    "help",
    "clear",
    "login",
    "logout",
    "status",
    "version",
    "doctor",
    "model",
    "cost",
    "resume",
    "history",
    "config",
    "compact",
    "init",
    "bug",
    "memory",
    "permissions",
    "mcp",
    "hooks",
    "agents",
    "ide",
    "theme",
    "vim",
    "upgrade",
    "update",
    "stats",
    "context",
    "rewind",
    "review",
    "diff",
    "undo",
    "new",
    "approvals",
    "mention",
    "logout",
    "ls",
    "pwd",
    "cd",
    "claude",
    "codex",
];

/// The first prompts of the agent's calls of itself, which are no work a person did:
/// Claude Code's warm-up sub-agents, its compaction helper, its prompt suggestions.
const HELPER_PROMPTS: &[(&str, &str)] = &[
    ("Warmup", "warm-up call"),
    ("[SUGGESTION MODE:", "prompt suggestion call"),
    (
        "Your task is to create a detailed summary of the conversation so far",
        "compaction call",
    ),
    // A memory plug-in's summary of an earlier conversation, pasted into the prompt
    // ("… to help users and Claude choose …", "… and Codex choose …").
    (
        "Context: This summary will be shown in a list to help users and",
        "conversation summary call",
    ),
    // A memory plug-in's observer, fed the person's sessions as they go.
    (
        "Hello memory agent, you are continuing to observe the primary",
        "memory observer call",
    ),
    (
        "You are a Claude-Mem, a specialized observer tool",
        "memory observer call",
    ),
    // Codex's IDE extension naming a task by a call of its own.
    (
        "You are a helpful assistant. You will be presented with a user prompt, and your job is to provide a short title",
        "title call",
    ),
    ("Generate a concise UI title", "title call"),
];

/// Folders that a plug-in's own helper session names in its first line: a learning
/// plug-in asks the agent to read its log of observations (`~/.claude/homunculus/`).
const HELPER_FOLDERS: &[(&str, &str)] = &[("/.claude/homunculus/", "plug-in helper call")];

/// Folders a plug-in runs its helper sessions in (a memory plug-in's observer in
/// `~/.claude-mem/observer-sessions`): a session working there is the plug-in's.
const HELPER_WORK_FOLDERS: &[(&str, &str)] = &[("/.claude-mem/", "memory observer call")];

/// Replies that only ask the agent to go on, acknowledge or agree: no request of their
/// own. A reply made of several of them ("oui continue", "好的，继续执行", "yes please")
/// is one too. In the scripts written without spaces they are found inside a line, so
/// each is a word that cannot be part of a request's own words. Written as `plain`
/// gives them (no apostrophe, a hyphen a space: "cest fait", "vas y").
const GO_ONS: &[&str] = &[
    "continue",
    "go on",
    "go ahead",
    "proceed",
    "keep going",
    "yes",
    "y",
    "yep",
    "yeah",
    "yup",
    "ok",
    "okay",
    "k",
    "sure",
    "next",
    "do it",
    "go",
    "please",
    "pls",
    "thanks",
    "thank you",
    "done",
    "retry",
    "try again",
    "carry on",
    "resume",
    "start",
    "go for it",
    "sounds good",
    "lgtm",
    "agreed",
    "approved",
    "confirmed",
    "yes to all",
    "yes to both",
    // Chinese (and its pinyin typed without the input method).
    "继续",
    "繼續",
    "好的",
    "好",
    "嗯",
    "行",
    "可以",
    "是的",
    "是",
    "对",
    "對",
    "对的",
    "没错",
    "沒錯",
    "没问题",
    "同意",
    "确认",
    "確認",
    "确定",
    "收到",
    "开始",
    "開始",
    "执行",
    "執行",
    "实施",
    "全部",
    "都",
    "要",
    "需要",
    "好了",
    "下一步",
    "下一个",
    "谢谢",
    "謝謝",
    "哈哈",
    "吧",
    "啊",
    "呀",
    "请",
    "請",
    "jixu",
    "haode",
    "keyi",
    // Japanese.
    "はい",
    "うん",
    "お願いします",
    "お願い",
    "おねがいします",
    "続けて",
    "続けてください",
    "続行",
    "進めて",
    "進めてください",
    "実施して",
    "実行して",
    "どうぞ",
    "いいよ",
    "オッケー",
    "了解",
    "了解です",
    "ありがとう",
    "ありがとうございます",
    // Korean.
    "네",
    "예",
    "응",
    "넵",
    "계속",
    "계속해",
    "계속해줘",
    "계속해 주세요",
    "진행",
    "진행해",
    "진행해줘",
    "진행해 주세요",
    "시작",
    "시작해",
    "다시 시작",
    "좋아",
    "좋아요",
    "확인",
    // French.
    "oui",
    "ouais",
    "daccord",
    "vas y",
    "allez",
    "allez y",
    "continuez",
    "continuer",
    "cest fait",
    "fait",
    "je valide",
    "valide",
    "merci",
    "parfait",
    "suivant",
    "stp",
    // Spanish, Portuguese, Italian.
    "sí",
    "si",
    "vale",
    "dale",
    "claro",
    "continúa",
    "continua",
    "continuar",
    "sigue",
    "adelante",
    "listo",
    "hecho",
    "gracias",
    "por favor",
    "sim",
    "pode",
    "pode continuar",
    "pronto",
    "obrigado",
    "avanti",
    "procedi",
    "grazie",
    // German.
    "ja",
    "weiter",
    "mach weiter",
    "fortfahren",
    "los",
    "genau",
    "passt",
    "danke",
    "bitte",
    // Russian.
    "да",
    "давай",
    "продолжай",
    "продолжи",
    "дальше",
    "далее",
    "ок",
    "хорошо",
    "готово",
    "спасибо",
];

/// Words that say which of the agent's offers is taken ("option B", "方案A", "选 2"),
/// with the choice itself (a number or a letter, `choice_mark`).
const CHOOSING: &[&str] = &[
    "option", "options", "choice", "plan", "and", "both", "all", "选项", "选择", "选", "方案", "和",
];

/// Greetings and questions to the agent about itself: no work of their own.
const SMALL_TALK: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "hi there",
    "hello there",
    "good morning",
    "test",
    "testing",
    "ping",
    "what model are you",
    "which model are you",
    "what model is this",
    "who are you",
    "what are you",
    "what can you do",
    "what model do you use",
    "what model are you using",
    "which model do you use",
    "what is your model",
    "whats your model",
    "what version are you",
    "which version are you",
    "are you claude",
    "are you gpt",
    "who made you",
    "who created you",
    "what llm are you",
    "who am i talking to",
    "how are you",
    "what is your name",
    "whats your name",
    // The same questions in other languages.
    "你是谁",
    "你是什么模型",
    "你是啥模型",
    "你是哪个模型",
    "什么模型",
    "你好",
    "您好",
    "哈喽",
    "哈啰",
    "嗨",
    "あなたは誰",
    "あなたはどのモデル",
    "こんにちは",
    "こんにちわ",
    "こんばんは",
    "おはよう",
    "はろー",
    "ハロー",
    "やあ",
    "qué modelo eres",
    "que modelo eres",
    "quién eres",
    "quien eres",
    "hola",
    "quel modèle es-tu",
    "quel modele es tu",
    "qui es-tu",
    "qui es tu",
    "bonjour",
    "welches modell bist du",
    "wer bist du",
    "hallo",
    "que modelo você é",
    "quem é você",
    "какая ты модель",
    "кто ты",
    "привет",
];

/// Names an answer gives when it tells what the agent is: its model and maker.
const SELF_NAMES: &[&str] = &[
    "Claude",
    "Anthropic",
    "OpenAI",
    "GPT-",
    "Codex",
    "Sonnet",
    "Opus",
    "Haiku",
];

/// A greeting or a question to the agent about itself ("hi", "What model are you?"), in
/// any of several languages and with a typo or two ("What model rae you?"), or a few
/// lines of them ("hello" then "test").
pub fn small_talk(text: &str) -> bool {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .peekable();
    lines.peek().is_some()
        && text.chars().count() <= 80
        && lines.all(|l| {
            let t = plain(l);
            SMALL_TALK.iter().any(|g| {
                let g = plain(g);
                // A typo is forgiven in a phrase long enough not to become another.
                t == g || (g.chars().count() >= 10 && typos(&t, &g) <= 2)
            })
        })
}

/// Text as compared with the phrases: lower case, without punctuation (of either
/// width), spaces collapsed.
fn plain(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == ' ' {
                c.to_lowercase().next().unwrap_or(c)
            } else if c == '-' {
                ' '
            } else {
                '\u{0}'
            }
        })
        .filter(|c| *c != '\u{0}')
        .collect();
    // A vowel drawn out ("こんにちはー", "hiii~" aside) is the same greeting.
    let kept = kept.trim_end_matches(['ー', '〜']);
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The edit distance between two short texts (insertions, deletions, substitutions and
/// swaps of two neighbours), counted in characters.
fn typos(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 2 {
        return 3;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// A prompt that is the agents' own command line or one of their commands typed where a
/// request goes (`claude -r`, `--history`, `usage`, `/model`), not a request.
pub fn typed_command(text: &str) -> bool {
    let t = text.trim();
    if t.contains('\n') || t.chars().count() > 60 {
        return false;
    }
    let first = t.split_whitespace().next().unwrap_or("");
    let words = t.split_whitespace().count();
    (first.starts_with('-') && words <= 3)
        || (matches!(first, "claude" | "codex")
            && words <= 4
            && t.split_whitespace().skip(1).all(|w| {
                // An option, a subcommand, or the id of a session to resume.
                w.starts_with('-')
                    || TYPED_COMMANDS.contains(&w)
                    || matches!(w, "exec" | "install" | "apply" | "setup-token")
                    || (w.len() >= 8 && w.chars().all(|c| c.is_ascii_hexdigit() || c == '-'))
            }))
        || (first.starts_with('/') && words == 1 && !first[1..].contains('/') && first.len() > 1)
        || (words == 1 && TYPED_COMMANDS.contains(&first.to_ascii_lowercase().as_str()))
}

/// A note that ends what the prompt before it got: an interruption, an API error.
pub fn cut_off(note: &str) -> bool {
    let t = note.trim_start();
    t.starts_with("[Request interrupted")
        || t.starts_with("API Error")
        || t.starts_with("<turn_aborted>")
}

/// Whether an answer tells what the agent is (its model or its maker): an answer to a
/// question about itself, in whatever language it was asked.
pub fn about_itself(answer: &str) -> bool {
    answer.chars().count() <= 1200 && SELF_NAMES.iter().any(|n| answer.contains(n))
}

/// Terminal frame characters (box drawing: `│ ╭ ╰ ─`) taken out of a title, which a
/// prompt pasted from a terminal screen brings along.
pub fn unframed(title: &str) -> String {
    let frame = |c: char| ('\u{2500}'..='\u{257f}').contains(&c);
    if !title.chars().any(frame) {
        return title.trim().to_string();
    }
    let kept: String = title
        .chars()
        .map(|c| if frame(c) { ' ' } else { c })
        .collect();
    let words = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    // The input box's prompt mark, pasted with its frame.
    words.strip_prefix("> ").unwrap_or(&words).to_string()
}

/// Whether text in the person's turn was put there by the agent's program.
pub fn not_written(text: &str) -> bool {
    let t = text.trim_start();
    t.is_empty() || NOT_WRITTEN.iter().any(|p| t.starts_with(p)) || program_element(t)
}

/// Tags without an underscore in whose element Codex puts a skill's text in the
/// person's turn (`<skill><name>…</name>…</skill>`).
const PROGRAM_TAGS: &[&str] = &["skill"];

/// Text that is wholly one element whose tag is named in snake case
/// (`<recommended_plugins>…</recommended_plugins>`, `<user_action>`, `<uploaded_files>`)
/// or is one of `PROGRAM_TAGS`: the form in which the agents' programs put what they add
/// to the person's turn, new kinds with each version. Not the form of a request, and no
/// tag of HTML or of an XML file pasted whole.
fn program_element(text: &str) -> bool {
    let t = text.trim();
    let Some(rest) = t.strip_prefix('<') else {
        return false;
    };
    let name: &str = rest
        .split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
        .next()
        .unwrap_or("");
    let snake = name.split('_').count() >= 2 && name.split('_').all(|w| !w.is_empty());
    let opened = rest[name.len()..].starts_with(['>', ' ', '\n']);
    (snake || PROGRAM_TAGS.contains(&name)) && opened && t.ends_with(&format!("</{name}>"))
}

/// Why a session's first prompt makes it a helper call of the agent, if it does.
pub fn helper_prompt(text: &str) -> Option<&'static str> {
    let t = text.trim_start();
    HELPER_PROMPTS
        .iter()
        .find(|(p, _)| {
            // "Warmup" is the whole prompt; the others open a longer one.
            if *p == "Warmup" {
                t.trim_end() == *p
            } else {
                t.starts_with(p)
            }
        })
        .map(|(_, why)| *why)
        .or_else(|| {
            let first = t.lines().next().unwrap_or("");
            HELPER_FOLDERS
                .iter()
                .find(|(folder, _)| first.contains(folder))
                .map(|(_, why)| *why)
        })
}

/// Why a session is a plug-in's helper call, by the working folder it ran in (either
/// kind of slash), if it is one.
pub fn helper_folder(cwd: &str) -> Option<&'static str> {
    let cwd = format!("{}/", cwd.replace('\\', "/"));
    HELPER_WORK_FOLDERS
        .iter()
        .find(|(folder, _)| cwd.contains(folder))
        .map(|(_, why)| *why)
}

/// A bare go-on ("continue", "yes", ".", "继续", "oui", "はい、お願いします"): a reply
/// with no request of its own, in any of several languages, alone or a few together.
pub fn go_on(text: &str) -> bool {
    replies_only(text, false)
}

/// A bare reply: a go-on, or the choice of one of the agent's offers ("1", "B", "option
/// 2", "方案A", "1 + 3"), or a key or two typed alone (`dd`): no request of its own.
/// An agent's answer that is only a number or a letter may be what was asked, so only a
/// person's turn is read so.
pub fn bare_reply(text: &str) -> bool {
    if replies_only(text, true) {
        return true;
    }
    let mut signs = text.chars().filter(|c| c.is_alphanumeric());
    let two = matches!((signs.next(), signs.next(), signs.next()),
        (Some(a), Some(b), None) if a.is_ascii_alphabetic() && b.is_ascii_alphabetic());
    two && !small_talk(text) && !typed_command(text)
}

/// Whether `text` is only go-ons (and, with `choices`, choices), one after another.
fn replies_only(text: &str, choices: bool) -> bool {
    // `plain` keeps every letter and digit: a longer text is no reply, and is not copied.
    if text
        .chars()
        .filter(|c| c.is_alphanumeric())
        .nth(REPLY_CHARS)
        .is_some()
    {
        return false;
    }
    let t = plain(text);
    if t.is_empty() {
        // Punctuation alone (".", "?", "…").
        return true;
    }
    let chars: Vec<char> = t.chars().collect();
    if chars.len() > REPLY_CHARS {
        return false;
    }
    let phrases = phrases(choices);
    // A word of a script written with spaces is matched whole; a sign of a script
    // written without them may sit against the next one.
    let edge = |c: Option<&char>| c.is_none_or(|c| *c == ' ' || ideographic(*c));
    let starts = |i: usize| i == 0 || edge(chars.get(i - 1));
    let ends = |i: usize| edge(chars.get(i));
    let mut reached = vec![false; chars.len() + 1];
    reached[0] = true;
    for i in 0..chars.len() {
        if !reached[i] {
            continue;
        }
        if chars[i] == ' ' {
            reached[i + 1] = true;
            continue;
        }
        for p in phrases {
            let end = i + p.len();
            let spaced = p.iter().any(|c| !ideographic(*c));
            if end <= chars.len() && chars[i..end] == p[..] && (!spaced || (starts(i) && ends(end)))
            {
                reached[end] = true;
            }
        }
        if choices {
            let end = choice_mark(&chars, i);
            if end > i && starts(i) && ends(end) {
                reached[end] = true;
            }
        }
    }
    reached[chars.len()]
}

/// The go-ons (and, with `choices`, the words of choosing) as `plain` gives them, made
/// once.
fn phrases(choices: bool) -> &'static [Vec<char>] {
    static GO: std::sync::OnceLock<Vec<Vec<char>>> = std::sync::OnceLock::new();
    static CHOOSE: std::sync::OnceLock<Vec<Vec<char>>> = std::sync::OnceLock::new();
    let make = |lists: &[&[&str]]| {
        lists
            .iter()
            .flat_map(|l| l.iter())
            .map(|g| plain(g).chars().collect())
            .collect()
    };
    if choices {
        CHOOSE.get_or_init(|| make(&[GO_ONS, CHOOSING]))
    } else {
        GO.get_or_init(|| make(&[GO_ONS]))
    }
}

/// The longest reply, in characters, read as a go-on or a choice.
const REPLY_CHARS: usize = 40;

/// Where a choice that begins at `i` ends: a number of at most three digits, or a
/// letter alone (`b`, `c`) or against a sign (`方案a`); `i` when none begins there.
fn choice_mark(chars: &[char], i: usize) -> usize {
    let digits = chars[i..].iter().take_while(|c| c.is_numeric()).count();
    if digits > 0 {
        return if digits <= 3 { i + digits } else { i };
    }
    let letter = chars[i].is_ascii_alphabetic();
    let alone = chars
        .get(i + 1)
        .is_none_or(|c| !c.is_alphanumeric() || ideographic(*c));
    if letter && alone {
        i + 1
    } else {
        i
    }
}

/// The input of a prompt file (a template such as spec-kit's, run as a command): the
/// fenced text under its `## User Input` heading, else the text under it up to the next
/// heading. Some("") when its placeholder was left unfilled (`$ARGUMENTS`, as an editor
/// inserts the file); None when the text is no such template.
pub fn prompt_file_input(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let i = lines.iter().position(|l| l.trim() == "## User Input")?;
    let rest = &lines[i + 1..];
    let body: Vec<&str> = match rest.iter().position(|l| l.trim_start().starts_with("```")) {
        Some(open) if rest[..open].iter().all(|l| l.trim().is_empty()) => rest[open + 1..]
            .iter()
            .take_while(|l| !l.trim_start().starts_with("```"))
            .copied()
            .collect(),
        _ => rest
            .iter()
            .take_while(|l| !l.starts_with('#'))
            .copied()
            .collect(),
    };
    let input = body.join("\n").trim().to_string();
    Some(if input == "$ARGUMENTS" {
        String::new()
    } else {
        input
    })
}

/// Whether a person's turn only lets the agent go on with work asked before: a bare
/// reply, or a prompt file run without its input.
pub fn goes_on(text: &str) -> bool {
    !text.trim().is_empty()
        && (bare_reply(text) || prompt_file_input(text).is_some_and(|i| i.is_empty()))
}

/// Whether a prompt is a request: written by the person, and more than a bare reply.
pub fn is_request(text: &str) -> bool {
    !not_written(text) && !bare_reply(text) && helper_prompt(text).is_none() && !typed_command(text)
}

/// The title a prompt gives: its first line, or, when that line only announces what
/// follows ("Fix these tests:"), that line and the next, joined. Leading lines that say
/// nothing (a stray word, a brace, a markup tag, a pasted file's comment) are passed
/// over where a line of words follows.
pub fn title_line(text: &str) -> String {
    // A line the person continued with a backslash ends at its text.
    let all: Vec<&str> = text
        .trim()
        .lines()
        .map(|l| l.trim().trim_end_matches('\\').trim_end())
        .filter(|l| !l.is_empty())
        .collect();
    // An acknowledgment or a greeting above the request ("わかった。", "ok", "hello").
    let says_nothing = |l: &str| {
        wordless(l)
            || lone_word(l)
            || bare_reply(l)
            || small_talk(l)
            || few_signs(l)
            || summary_heading(l)
    };
    let skip = all
        .iter()
        .take(4)
        .position(|l| !says_nothing(l))
        .unwrap_or(0);
    let mut lines = all.into_iter().skip(skip);
    let first = lines.next().unwrap_or("").to_string();
    if first.ends_with(':') {
        // What follows, passing over a ruler (`=====`) or a brace.
        if let Some(next) = lines.find(|l| l.chars().any(char::is_alphanumeric)) {
            return format!("{first} {}", unbulleted(next));
        }
    } else if slight_line(&first) && !lone_word_of_letters(&first) {
        // A short request pointing at what is pasted below it ("fix this error", then
        // the error): the first line of what is pasted says what.
        if let Some(next) = lines.find(|l| !wordless(l)) {
            return format!("{first}: {next}");
        }
    }
    first
}

/// Words that point back at what was said before ("run it", "fix this"): a request of
/// three words or fewer made with one, or one that ends on one ("Go ahead with the
/// plan"), goes on with earlier work and names none of its own.
const REFERRING: &[&str] = &[
    "it", "this", "that", "these", "those", "them", "there", "here", "again", "same", "above",
    "plan", "one", "ones",
];

/// The same, in scripts written without spaces, found inside a line.
const REFERRING_IDEOGRAPHIC: &[&str] = &[
    "これ",
    "それ",
    "あれ",
    "この",
    "その",
    "どういう",
    "这",
    "那",
    "它",
    "此",
    "什么意思",
];

/// Words a reply opens with before what it asks ("yes", "ok", "now", "let me see"):
/// taken off, a reply left with two words or fewer goes on from the agent's last words.
const REPLY_OPENINGS: &[&str] = &[
    "yes", "yep", "yeah", "ok", "okay", "sure", "alright", "fine", "great", "perfect", "good",
    "nice", "cool", "no", "nope", "now", "then", "and", "so", "also", "just", "please", "let",
    "me", "see",
];

/// The most signs a request written without spaces may have and still say too little.
const FEW_IDEOGRAPHS: usize = 4;

/// A request that names no work of its own, so that a later request of its segment
/// titles it better: its title line is wordless (see `wordless`), a lone word of
/// letters (`aaa`, `Looking`, `model_reasoning_effort=high`), a few ideographs and no
/// Latin word (`まとめて`), or a short reply that goes on from the agent's last words
/// (`run it`, `yes go ahead`, `Let me see the test`).
pub fn slight(text: &str) -> bool {
    slight_line(&title_line(text))
}

/// Whether a title line names no work of its own (`slight`).
fn slight_line(line: &str) -> bool {
    if wordless(line) {
        return true;
    }
    let ideographs = ideographs(line);
    if ideographs > 0 {
        // A script written without spaces: a few signs, or a short request pointing
        // back; a name or a term in Latin letters (`worktree`, `qwen3.5`) says what.
        return few_signs(line)
            || (!latin_term(line)
                && ideographs <= 10
                && REFERRING_IDEOGRAPHIC.iter().any(|r| line.contains(r)));
    }
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let asked = words
        .iter()
        .skip_while(|w| REPLY_OPENINGS.contains(&w.as_str()))
        .count();
    let referring = |w: &String| REFERRING.contains(&w.as_str());
    let ends_pointing = words
        .last()
        .is_some_and(|w| referring(w) && !matches!(w.as_str(), "again" | "here" | "there"));
    words.len() <= 1
        || (words.len() <= 6
            && (asked <= 2 || (words.len() <= 3 && words.iter().any(referring)) || ends_pointing))
}

/// A line of at most a few signs of a script written without spaces and no Latin word
/// (`わかった。`, `まとめて`).
fn few_signs(line: &str) -> bool {
    let ideographs = ideographs(line);
    ideographs > 0 && ideographs <= FEW_IDEOGRAPHS && !latin_term(line)
}

/// How many signs of a script written without spaces a line holds.
fn ideographs(line: &str) -> usize {
    line.chars().filter(|c| ideographic(*c)).count()
}

/// Whether a line holds a word of three Latin letters or more (a name, a term).
fn latin_term(line: &str) -> bool {
    line.split(|c: char| !c.is_ascii_alphabetic())
        .any(|run| run.len() >= 3)
}

/// A sign of a script written without spaces (Han, kana, Hangul).
fn ideographic(c: char) -> bool {
    c as u32 >= 0x2E80 && c.is_alphanumeric()
}

/// A line holding at most one word of letters and no sign of a script written without
/// spaces (`"statusLine": {`): no request pointing at what follows.
fn lone_word_of_letters(line: &str) -> bool {
    let words = line
        .split_whitespace()
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .count();
    words <= 1 && !line.chars().any(ideographic)
}

/// The headings of the summary Claude Code writes of a conversation it compacts
/// ("1. Primary Request and Intent:", "## 7. Pending Tasks"): its template's, which name
/// no work; the text under them does.
const SUMMARY_HEADINGS: &[&str] = &[
    "primary request and intent",
    "key technical concepts",
    "files and code sections",
    "errors and fixes",
    "problem solving",
    "all user messages",
    "pending tasks",
    "current work",
    "optional next step",
];

/// A line that is one of `SUMMARY_HEADINGS`, numbered, marked as a heading or bold, with
/// or without its colon.
pub fn summary_heading(line: &str) -> bool {
    let t = line.trim_start_matches('#').trim().trim_matches('*').trim();
    let t = t
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start_matches(['.', ')'])
        .trim();
    let t = t
        .trim_matches('*')
        .trim_end_matches(':')
        .trim_matches('*')
        .trim();
    SUMMARY_HEADINGS.iter().any(|h| t.eq_ignore_ascii_case(h))
}

/// A line of a list without its bullet (`- Build the importer` → `Build the importer`).
fn unbulleted(line: &str) -> &str {
    ["- ", "* ", "• "]
        .iter()
        .find_map(|b| line.strip_prefix(b))
        .unwrap_or(line)
}

/// A line of one word in a script written with spaces (`aaa`, `user`, `Looking`).
fn lone_word(line: &str) -> bool {
    let t = line.trim();
    !t.contains(char::is_whitespace) && !t.chars().any(|c| c as u32 >= 0x2E80)
}

/// A line of no words a title could carry: punctuation or brackets only, a markup tag
/// alone (`<meta>`, `</div>`), a pasted file's comment naming the file (`# ~/.zshrc`).
pub fn wordless(line: &str) -> bool {
    let t = line.trim();
    let tag = t.starts_with('<') && t.ends_with('>') && !t[1..].contains('<');
    let words: Vec<&str> = t
        .split_whitespace()
        .filter(|w| {
            let letters = w.chars().filter(|c| c.is_alphabetic()).count();
            // A path or a file name is no word of a request.
            letters >= 2 && (!w.contains('/') || w.chars().any(ideographic))
        })
        .collect();
    tag || words.is_empty()
}

/// A title a summary or the agent's title record gives that is the program's own text
/// (a usage limit, an API error), not what the session was about.
pub fn program_text(text: &str) -> bool {
    not_written(text) || cut_off(text)
}

/// The text with each `<private>…</private>` span taken out (an unclosed one runs to
/// the end): what a person marks so is never stored.
pub fn without_private(text: &str) -> std::borrow::Cow<'_, str> {
    const OPEN: &str = "<private>";
    const CLOSE: &str = "</private>";
    if !text.contains(OPEN) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + OPEN.len()..];
        match after.find(CLOSE) {
            Some(end) => rest = &after[end + CLOSE.len()..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_what_is_not() {
        for not in [
            "<ide_opened_file>The user opened the file /x/a.rs in the IDE.</ide_opened_file>",
            "<task-notification><task-id>b1</task-id></task-notification>",
            "<command-name>/usage</command-name>",
            "Unknown skill: usage",
            "continue",
            "Yes.",
            ".",
            "ok!",
            "Warmup",
            "[SUGGESTION MODE: Suggest what the user might naturally type next into Claude Code.]",
        ] {
            assert!(!is_request(not), "{not}");
        }
        for yes in [
            "continue the migration of the orders table",
            "yes, but keep the old column",
            "Warmup the cache before the benchmark",
        ] {
            assert!(is_request(yes), "{yes}");
        }
        assert!(small_talk("What model are you?") && small_talk("hi"));
        assert!(!small_talk("hi, the login page 500s since the deploy"));
        assert!(small_talk("hello\ntest") && small_talk("Hi!\n\nWhat model are you?"));
        assert!(!small_talk("hello\nthe login page 500s since the deploy") && !small_talk("\n"));
    }

    #[test]
    fn bare_replies_in_any_language_are_no_request() {
        for reply in [
            "继续",
            "繼續",
            "继续执行",
            "好的，继续",
            "可以，开始实施",
            "全部执行",
            "jixu",
            "JIXU",
            "はい、お願いします。",
            "続けてください",
            "네",
            "계속해 주세요",
            "다시 시작",
            "oui",
            "Oui, continue !",
            "c'est fait",
            "vas-y",
            "sí, continúa",
            "pode continuar",
            "ja bitte",
            "да, продолжай",
            "yes please",
            "Please continue.",
            "ok go",
            "yes to all",
            "👍",
            "？",
        ] {
            assert!(go_on(reply), "{reply:?} goes on");
            assert!(!is_request(reply), "{reply:?} is no request");
        }
        // A choice among the agent's offers, or a key or two: a person's reply only.
        for choice in [
            "1",
            "2.",
            "２",
            "22",
            "B",
            "a)",
            "1 + 2",
            "2 and 3",
            "1, 3",
            "option 2",
            "Option B please",
            "方案A",
            "选B",
            "执行方案2吧",
            "B和C",
            "dd",
            "CR",
        ] {
            assert!(bare_reply(choice), "{choice:?} is a bare reply");
            assert!(!go_on(choice), "{choice:?} may be an answer's fact");
            assert!(!is_request(choice), "{choice:?} is no request");
        }
        // Requests that hold such words, and what stays as it was.
        for request in [
            "继续开发登录页",
            "还是不行",
            "不行",
            "好了吗",
            "yes, but keep the old column",
            "continue the migration of the orders table",
            "option to export the report as CSV",
            "A/B test the checkout page",
            "1.5x the retry delay",
            "2024 report totals are off",
            "ok commit all",
            "oui mais garde l'ancienne colonne",
            "weiter mit der Migration der Bestelltabelle",
            "v2",
            "ab1",
        ] {
            assert!(is_request(request), "{request:?} is a request");
        }
        // A greeting keeps its own rule (a segment of it is without work), a typed
        // command its own.
        for (text, greeting) in [("hi", true), ("哈喽", true), ("ls", false)] {
            assert!(!bare_reply(text), "{text:?}");
            assert_eq!(small_talk(text), greeting, "{text:?}");
        }
        // A leading reply is passed over for the request under it.
        assert_eq!(
            title_line("2\nthen rename the module"),
            "then rename the module"
        );
        assert_eq!(
            title_line("好的，继续\n顺便把日志改成英文"),
            "顺便把日志改成英文"
        );
    }

    #[test]
    fn whole_elements_of_the_programs_tags_are_not_written() {
        for program in [
            "<recommended_plugins>\nHere is a list of plugins that are available.\n- Box (box@curated)\n</recommended_plugins>",
            "<user_action>\n  <context>User initiated a review task.</context>\n  <action>review</action>\n</user_action>",
            "<subagent_notification>\n{\"agent_path\":\"x\",\"status\":{\"completed\":\"Done.\"}}\n</subagent_notification>",
            "<skill>\n<name>release-notes</name>\n<path>/home/ana/.codex/skills/release-notes/SKILL.md</path>\n# Release notes\n</skill>",
            "<uploaded_files>\n<file><file_path>/mnt/uploads/plan.md</file_path></file>\n</uploaded_files>",
            // A tag no version writes yet, in the same form.
            "  <workspace_hints kind=\"git\">\nmain is protected\n</workspace_hints>\n",
        ] {
            assert!(not_written(program), "{program:?}");
            assert!(!is_request(program), "{program:?}");
        }
        for person in [
            "<div class=\"cart\">the badge</div>",
            "<svg viewBox=\"0 0 10 10\"><path d=\"M0 0\"/></svg>",
            "<recommended_plugins>\n- Box\n</recommended_plugins>\nwhy do you offer these?",
            "<user_action> is logged twice, find out why",
            "<skill_list> tag breaks the parser </skill_list> fix it",
            "<Recommended_Plugins>x</Recommended_Plugins>",
        ] {
            assert!(!not_written(person), "{person:?}");
        }
    }

    #[test]
    fn helper_calls_of_plug_ins_and_of_the_ide_extension() {
        for (prompt, why) in [
            (
                "Context: This summary will be shown in a list to help users and Claude choose which conversations are relevant.\n\nPlease write a concise, factual summary of this conversation.\n\nUser: fix the login",
                "conversation summary call",
            ),
            (
                "Context: This summary will be shown in a list to help users and Codex choose which conversations are relevant.",
                "conversation summary call",
            ),
            (
                "Hello memory agent, you are continuing to observe the primary Claude session.\n<observed_from_primary_session>",
                "memory observer call",
            ),
            (
                "You are a Claude-Mem, a specialized observer tool for creating searchable memory",
                "memory observer call",
            ),
            (
                "Generate a concise UI title (20-40 characters) for this task.\nReturn only the title.\n\nTask:\nfix the cart",
                "title call",
            ),
            (
                "You are a helpful assistant. You will be presented with a user prompt, and your job is to provide a short title for a task that will be created from that prompt.",
                "title call",
            ),
        ] {
            assert_eq!(helper_prompt(prompt), Some(why), "{prompt:?}");
        }
        for prompt in [
            "This summary will be shown in a list: make its rows shorter",
            "Generate a title for each blog post in posts/",
            "You are a helpful assistant for the checkout team: review src/cart.rs",
        ] {
            assert_eq!(helper_prompt(prompt), None, "{prompt:?}");
        }
        for cwd in [
            "/home/ana/.claude-mem/observer-sessions",
            "C:\\Users\\ana\\.claude-mem\\observer-sessions",
            "/Users/ana/.claude-mem",
        ] {
            assert_eq!(helper_folder(cwd), Some("memory observer call"), "{cwd}");
        }
        for cwd in [
            "/home/ana/claude-mem",
            "/home/ana/shop",
            "/home/ana/.claude-memory",
        ] {
            assert_eq!(helper_folder(cwd), None, "{cwd}");
        }
    }

    #[test]
    fn a_prompt_file_gives_its_input_and_none_when_left_unfilled() {
        let file = |input: &str| {
            format!("---\ndescription: Write the spec.\n---\n\n## User Input\n\n```text\n{input}\n```\n\nRead the input above.\n\n## Outline\n\n1. Pick a name.")
        };
        assert_eq!(
            prompt_file_input(&file("Let shoppers save carts")).as_deref(),
            Some("Let shoppers save carts")
        );
        assert_eq!(prompt_file_input(&file("$ARGUMENTS")).as_deref(), Some(""));
        assert_eq!(
            prompt_file_input("## User Input\r\n\r\n```text\r\n$ARGUMENTS\r\n```\r\n").as_deref(),
            Some("")
        );
        assert_eq!(
            prompt_file_input("## User Input\nadd a refund button\n## Outline\nx").as_deref(),
            Some("add a refund button")
        );
        assert_eq!(prompt_file_input("fix the user input form"), None);
        assert!(goes_on(&file("$ARGUMENTS")) && !goes_on(&file("Let shoppers save carts")));
        assert!(goes_on("继续") && !goes_on("") && !goes_on("fix the cart"));
    }

    #[test]
    fn a_plug_ins_helper_session_is_told_by_the_folder_it_names() {
        for t in [
            "Read /Users/ana/.claude/homunculus/observations.jsonl and identify patterns.",
            "Read /home/ana/.claude/homunculus/observations.jsonl and write instincts",
        ] {
            assert_eq!(helper_prompt(t), Some("plug-in helper call"), "{t}");
        }
        for t in [
            "Read src/homunculus/observations.rs and fix the parser",
            "What is in ~/.claude/settings.json?",
            "fix the tests\nthe log is in /home/ana/.claude/homunculus/x.jsonl",
        ] {
            assert_eq!(helper_prompt(t), None, "{t}");
        }
    }

    #[test]
    fn slight_requests_name_no_work_of_their_own() {
        for t in [
            "run it",
            "Let me see the test",
            "yes go ahead",
            "Go ahead with the plan",
            "ok commit all",
            "fix this error",
            "do it again",
            "aaa",
            "Looking",
            "here",
            "model_reasoning_effort=high",
            "{",
            "<meta>",
            "# ~/.zshrc",
            "まとめて",
            "ほんと？",
            "这个呢",
            "どういうこと？",
        ] {
            assert!(slight(t), "{t:?}");
        }
        for t in [
            "Refactor the billing module",
            "fix the flaky login test",
            "Make the CSV export stream rows",
            "clear all cache",
            "npm run dev",
            "Now backfill the old rows",
            "Explain this codebase to me",
            "Yes, do the cleanup.",
            "do the analysis again",
            "Close, but here are some issues:",
            "qwen3.5-0.8b是bf16的模型吗",
            "幫我移除 worktree fix-role-page-total",
            "読一下代碼",
            "查看/home/ana/llm/summary.md，先把nvfp4的集成部分验证正确了",
            "packages/backend/prisma/schema.prismaを読んで、テーブルの関係を整理して",
            "サイドバーのUI/UXを改善したい。どうすれば良い？",
            ".devenv/ に github の機能を追加して",
            ".devenv/clangd/run.sh を作成して",
            "Implement the following plan:\n# 实现计划：MXFP4 (W4) + MXFP8 (A8) 量化模式",
            "the VAT on invoices is off by a cent, fix the rounding",
            "add a credit note to invoices",
            "エラーを解消してデプロイを再実行して",
            "检查实验配置完整性",
            "aaa\nこのプロジェクトはどんなサービスですか？",
            "わかった。\nどのような値が取れる？設定のキーごとに教えて",
            "hello\nthe login form loses its state on reload",
            "user\nsearch web for the latest world model",
            "# ~/.zshrc\nalias c='codex --yolo'\nupdate the alias c to this one",
        ] {
            assert!(!slight(t), "{t:?}");
        }
    }

    #[test]
    fn titles_and_private_spans() {
        assert_eq!(
            title_line("Fetch these files from GitHub:\n\n- a.rs\n- b.rs"),
            "Fetch these files from GitHub: a.rs"
        );
        // The headings of a compacted conversation's summary name no work: the text under
        // the first one does, without its bullet.
        for (text, want) in [
            (
                "## 1. Primary Request and Intent\n\nThe user wants to:\n- Build the importer for **T20** markets\n- Keep it fast",
                "The user wants to: Build the importer for **T20** markets",
            ),
            (
                "1. Primary Request and Intent:\n   The user asked to move the cache to Redis.",
                "The user asked to move the cache to Redis.",
            ),
            (
                "**Primary Request and Intent**\nRename the billing module",
                "Rename the billing module",
            ),
            (
                "### 7) Pending Tasks:\nShip the release notes",
                "Ship the release notes",
            ),
            // Headings that name work stay.
            ("## Fixed! WebGL graphics now render", "## Fixed! WebGL graphics now render"),
            ("1. Clone the repository:\n- git clone x", "1. Clone the repository: git clone x"),
            ("Primary request handling in the router", "Primary request handling in the router"),
        ] {
            assert_eq!(title_line(text), want, "{text:?}");
        }
        for heading in [
            "Current Work:",
            "## 8. Current Work",
            "**9. Optional Next Step:**",
            "4. Errors and fixes",
        ] {
            assert!(summary_heading(heading), "{heading}");
        }
        for not in [
            "Current work on the parser",
            "8. Current",
            "Errors and fixes in the CLI",
        ] {
            assert!(!summary_heading(not), "{not}");
        }
        assert_eq!(title_line("Fix the build\nmore"), "Fix the build");
        assert_eq!(title_line("Note:"), "Note:");
        assert_eq!(
            title_line("close, but I get this:\\\nTypeError: x is undefined"),
            "close, but I get this: TypeError: x is undefined"
        );
        // A ruler after the colon is passed over; an acknowledgment, a greeting, a
        // stray word or a brace above the request too.
        assert_eq!(
            title_line(
                "we are close, but I get this:\n================\nError: no such table: jobs"
            ),
            "we are close, but I get this: Error: no such table: jobs"
        );
        for (text, want) in [
            (
                "fix this error\nTypeError: Cannot read properties of undefined",
                "fix this error: TypeError: Cannot read properties of undefined",
            ),
            (
                "どういうこと？\n\n```\nretry_after = 30\n```",
                "どういうこと？: retry_after = 30",
            ),
            (
                "そうなの？\nrate limits reset weekly",
                "rate limits reset weekly",
            ),
            ("run it", "run it"),
            (
                "\"statusLine\": {\n\"type\": \"command\"",
                "\"statusLine\": {",
            ),
            (
                "わかった。\nどのような値が取れる？",
                "どのような値が取れる？",
            ),
            ("ok\nnow split the parser", "now split the parser"),
            (
                "hello\nthe login form loses its state",
                "the login form loses its state",
            ),
            ("{\n}\nadd a status line", "add a status line"),
            ("ok", "ok"),
        ] {
            assert_eq!(title_line(text), want, "{text:?}");
        }
        assert_eq!(
            without_private("key <private>hunter2</private> and <private>rest"),
            "key  and "
        );
        assert_eq!(without_private("plain"), "plain");
    }
}
