//! What a GNU inline assembly statement may do besides reading its inputs
//! and writing its outputs, read off its text, its operands' constraints
//! and its clobbers: the one reading that lowering
//! (`lower/calls/library.rs`) and execution (`exec/stmt.rs`) share.
//!
//! Whether an `asm` may jump or loop is decided soundly (the choice is in
//! `c::meaning`'s table): it is jump-free only when every instruction in
//! it is on a list of x86 instructions known not to transfer control
//! ([`JUMP_FREE`], with the `lock`/`rep` prefixes and size suffixes), and
//! every directive either places data in another section (exception and
//! lock tables, `__bug_table`) or emits nothing (alignment, symbols, call
//! frame information). Anything else may jump: a mnemonic the list does
//! not know (`jrcxz`, `loop`, `ret`, `int`), bytes of code given as data
//! in the executed section (`.byte 0xeb, 0xfe`), a macro (`.macro`,
//! `.rept`, an operand in an instruction's place), a pointer placed in a
//! section the loader runs.

use lang_c::ast::{AsmStatement, GnuAsmOperand, StringLiteral};
use lang_c::span::Node;

/// An assembly statement's operands and what its text may do.
pub(crate) struct Reading<'a> {
    pub outputs: &'a [Node<GnuAsmOperand>],
    pub inputs: &'a [Node<GnuAsmOperand>],
    /// It may jump, loop or leave the function, or its text is not known
    /// to be jump-free: it could run forever or go anywhere.
    pub jumps: bool,
    /// It calls code outside the program (`call __get_user_4`).
    pub calls: bool,
    /// It may write memory its outputs do not name: a call, a `memory`
    /// clobber, or a memory operand (`m` constraint).
    pub memory: bool,
}

/// x86 instructions that never transfer control (base names: a size
/// suffix `b`/`w`/`l`/`q` may follow; `cmov`/`set` take a condition).
const JUMP_FREE: &[&str] = &[
    "mov", "movabs", "movs", "movz", "movsx", "movzx", "movsb", "movsw", "movsl", "movsq", "movsbw", "movsbl", "movsbq", "movswl", "movswq",
    "movslq", "movzb", "movzw", "movzbw", "movzbl", "movzbq", "movzwl", "movzwq", "movbe", "movnti", "movd", "movq", "lea", "add", "adc",
    "sub", "sbb", "and", "or", "xor", "not", "neg", "inc", "dec", "cmp", "test", "shl", "shr", "sal", "sar", "rol", "ror", "rcl", "rcr",
    "shld", "shrd", "bsf", "bsr", "bswap", "bt", "btc", "btr", "bts", "xchg", "cmpxchg", "cmpxchg8b", "cmpxchg16b", "xadd", "mul", "imul",
    "div", "idiv", "cbw", "cwde", "cdqe", "cwd", "cdq", "cqo", "cltq", "cqto", "cltd", "cwtl", "cbtw", "nop", "pause", "mfence", "lfence",
    "sfence", "cpuid", "rdtsc", "rdtscp", "rdpmc", "rdrand", "rdseed", "xgetbv", "popcnt", "lzcnt", "tzcnt", "andn", "bextr", "blsi",
    "blsmsk", "blsr", "bzhi", "pdep", "pext", "rorx", "sarx", "shlx", "shrx", "crc32", "push", "pop", "pushf", "popf", "lahf", "sahf",
    "clc", "stc", "cmc", "cld", "std", "in", "out", "ins", "outs", "stos", "lods", "cmps", "scas", "prefetch", "prefetchw", "prefetcht0",
    "prefetcht1", "prefetcht2", "prefetchnta", "clflush", "clflushopt", "clwb", "ud2", "call",
];

/// Instruction prefixes (`lock; incl %0`, `rep movsb`).
const PREFIXES: &[&str] = &["lock", "rep", "repe", "repz", "repne", "repnz", "data16", "addr32"];

/// Directives that emit nothing into the section they stand in.
const SILENT_DIRECTIVES: &[&str] = &[
    ".align", ".balign", ".p2align", ".type", ".size", ".globl", ".global", ".local", ".weak", ".hidden", ".protected", ".internal",
    ".loc", ".file", ".ident", ".set", ".equ", ".equiv", ".comm", ".lcomm", ".intel_syntax", ".att_syntax",
];

fn jump_free(mnemonic: &str) -> bool {
    let known = |m: &str| JUMP_FREE.contains(&m) || (m.starts_with("cmov") && m.len() <= 7) || (m.starts_with("set") && m.len() <= 6 && m != "set");
    known(mnemonic) || (mnemonic.len() > 1 && matches!(mnemonic.as_bytes()[mnemonic.len() - 1], b'b' | b'w' | b'l' | b'q') && known(&mnemonic[..mnemonic.len() - 1]))
}

/// Whether an assembly template may transfer control (see the module's
/// documentation), and whether it calls code outside the program.
fn transfers_control(text: &str) -> (bool, bool) {
    let mut sections: Vec<bool> = Vec::new(); // per pushed section: is it the executed one
    let mut executed = true;
    let mut calls = false;
    let without_comments: String = {
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find("/*") {
            out.push_str(&rest[..i]);
            rest = rest[i + 2..].split_once("*/").map_or("", |(_, r)| r);
        }
        out.push_str(rest);
        out
    };
    for line in without_comments.lines() {
        let line = line.split('#').next().unwrap_or("");
        for stmt in line.split(';') {
            let mut stmt = stmt.trim();
            // Labels: `1:`, `name:`.
            while let Some((label, rest)) = stmt.split_once(':') {
                if !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$') {
                    stmt = rest.trim();
                } else {
                    break;
                }
            }
            if stmt.is_empty() {
                continue;
            }
            let mut words = stmt.split_whitespace();
            let mut head = words.next().unwrap_or("").to_ascii_lowercase();
            while PREFIXES.contains(&head.as_str()) {
                match words.next() {
                    Some(w) => head = w.to_ascii_lowercase(),
                    None => {
                        head.clear();
                        break;
                    }
                }
            }
            if head.is_empty() {
                continue;
            }
            let argument = || stmt.split_whitespace().nth(1).unwrap_or("").split(',').next().unwrap_or("").trim_matches('"').to_string();
            match head.as_str() {
                ".pushsection" | ".section" => {
                    let name = argument();
                    if crate::c::meaning::loader_section(&name) {
                        return (true, calls);
                    }
                    let this = matches!(name.as_str(), ".text" | "");
                    if head == ".pushsection" {
                        sections.push(executed);
                    }
                    executed = this;
                }
                ".popsection" => executed = sections.pop().unwrap_or(true),
                ".previous" => executed = true,
                ".text" => executed = true,
                ".data" | ".bss" | ".rodata" => executed = false,
                d if d.starts_with(".cfi_") || SILENT_DIRECTIVES.contains(&d) => {}
                d if d.starts_with('.') => {
                    // Data, or a macro that may emit anything: harmless
                    // only as data outside the executed section.
                    let data = matches!(d, ".byte" | ".word" | ".short" | ".hword" | ".int" | ".long" | ".quad" | ".octa" | ".ascii" | ".asciz" | ".string" | ".fill" | ".skip" | ".space" | ".zero" | ".org" | ".uleb128" | ".sleb128" | ".4byte" | ".8byte" | ".2byte");
                    if executed || !data {
                        return (true, calls);
                    }
                }
                m if m.contains('%') || m.contains('[') => return (true, calls),
                m if jump_free(m) => calls |= m.starts_with("call"),
                _ => return (true, calls),
            }
        }
    }
    (false, calls)
}

pub(crate) fn read(a: &AsmStatement) -> Reading<'_> {
    let (template, outputs, inputs, clobbers): (&Node<StringLiteral>, &[Node<GnuAsmOperand>], &[Node<GnuAsmOperand>], &[Node<StringLiteral>]) = match a {
        AsmStatement::GnuBasic(t) => (t, &[], &[], &[]),
        AsmStatement::GnuExtended(x) => (&x.template, &x.outputs, &x.inputs, &x.clobbers),
    };
    let text = decode(&template.node);
    let (jumps, calls) = transfers_control(&text);
    let memory = calls || clobbers.iter().any(|c| c.node.concat().contains("memory")) || inputs.iter().chain(outputs).any(|op| op.node.constraints.node.concat().contains('m'));
    Reading { outputs, inputs, jumps, calls, memory }
}

/// The template's text: the pieces without their quotes, with the escapes
/// the assembler sees decoded (`\n`, `\t`, `\"`).
fn decode(pieces: &[String]) -> String {
    let mut out = String::new();
    for p in pieces {
        let body = p.trim().strip_prefix('"').and_then(|b| b.strip_suffix('"')).unwrap_or(p);
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::transfers_control;

    #[test]
    fn only_known_jump_free_text_is_jump_free() {
        for free in ["", "mov %1, %0", "lock; incl %0", "xchgl %0, %1\n", "bt %2,%1\n\tsbb %0,%0", "movq %%gs:%P1,%0", "rep movsb",
            ".pushsection .smp_locks,\"a\"\n.balign 4\n.long 671f - .\n.popsection\n671:\n\tlock; incl %0",
            "1:\tud2\n.pushsection __bug_table,\"aw\"\n2:\t.long 1b - 2b\n\t.word 0\n.popsection", "outb %b0, %w1", "cmovne %1, %0", "sete %0"] {
            assert!(!transfers_control(free).0, "{free:?} is jump-free");
        }
        for jumps in ["1: .byte 0xeb, 0xfe", "mov $0, %%rcx\n1: jrcxz 1b", "1: loop 1b", "jecxz 2f", "jmp 1b", "ret", "int $0x80", "syscall",
            ".macro m\n.endm", ".rept 3\nnop\n.endr", "%[op] %0", ".pushsection .init_array\n.quad f\n.popsection", "hlt", "call *%c2;\n jmp 1b"] {
            assert!(transfers_control(jumps).0, "{jumps:?} may jump");
        }
        assert!(transfers_control("call __put_user_4").1);
    }
}
