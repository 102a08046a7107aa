"""Checks Tessera's BenchExec integration with BenchExec itself.

1. BenchExec's own checker (`python -m benchexec.test_tool_info`) on the
   tool-info module, with sample outputs TRUE / FALSE(termination) / UNKNOWN.
2. One real run: the command line the module builds for a small C program,
   executed, and its output mapped by the module to a BenchExec result.
3. The benchmark definition tessera-termination.xml, loaded by BenchExec's
   model against a miniature sv-benchmarks layout: one run set, the right
   limits, command lines and property file.

Usage: python check_tool_info.py TOOL_DIR   (a folder holding `tessera`)
Exit status 0 when all checks pass, 1 otherwise. The module is made
importable as `tessera_benchexec.tessera` from a temporary package, since
BenchExec only looks up undotted tool names inside benchexec.tools.
"""

import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = "tessera_benchexec.tessera"
ANSWERS = {"TRUE": "true", "FALSE(termination)": "false(termination)", "UNKNOWN": "unknown"}
PROGRAM = "int main() { int x = 10; while (x > 0) { x--; } return 0; }\n"
TASK_SETS = ["BitVectors", "MainControlFlow", "MainHeap", "Other"]
DATA_MODELS = {"BitVectors": "LP64", "MainControlFlow": "ILP32", "MainHeap": "ILP32", "Other": "LP64"}
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def make_package(work):
    package = os.path.join(work, "pkg", "tessera_benchexec")
    os.makedirs(package)
    open(os.path.join(package, "__init__.py"), "w").close()
    shutil.copy(os.path.join(HERE, "tessera.py"), package)
    sys.path.insert(0, os.path.join(work, "pkg"))
    return os.path.join(work, "pkg")


def check_with_test_tool_info(work, pythonpath, tool_dir):
    samples = []
    for line in ANSWERS:
        path = os.path.join(work, "output-" + ANSWERS[line].replace("(", "-").rstrip(")") + ".txt")
        with open(path, "w") as f:
            f.write(line + "\nsome explanation\n")
        samples.append(path)
    # A relative tool directory keeps BenchExec from warning about absolute
    # executable paths (runs may be distributed to other machines).
    parent, name = os.path.split(tool_dir)
    env = dict(os.environ, PYTHONPATH=pythonpath + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "benchexec.test_tool_info", MODULE, "--no-container",
           "--tool-directory", name, "--tool-output", *samples]
    proc = subprocess.run(cmd, cwd=parent, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    print(proc.stdout)
    check(proc.returncode == 0, f"benchexec.test_tool_info exits 0 (got {proc.returncode})")
    lines = proc.stdout.splitlines()
    warnings = [l for l in lines if "WARNING" in l or "Traceback" in l]
    # Intended: a C task is one file.
    expected_warnings = ["does not support tasks with multiple input files"]
    unexpected = [w for w in warnings if not any(e in w for e in expected_warnings)]
    check(not unexpected, "no warnings from the checker" + "".join("\n       " + w for w in unexpected))
    check(any(l.startswith("Version:") and any(c.isdigit() for c in l) for l in lines),
          "version determined from `tessera --version`")
    for path in samples:
        expected = ANSWERS[open(path).readline().strip()]
        idx = next((i for i, l in enumerate(lines) if os.path.basename(path) in l and "Result" in l), None)
        got = lines[idx + 1].strip() if idx is not None and idx + 1 < len(lines) else None
        check(got == f"“{expected}”", f"{os.path.basename(path)} maps to {expected} (got {got})")


def option(cmdline, name):
    """The value after `name` in a command line, or None."""
    return cmdline[cmdline.index(name) + 1] if name in cmdline[:-1] else None


def check_real_run(work, tool_dir):
    from benchexec import model, util
    from benchexec.tooladapter import CURRENT_BASETOOL as BaseTool

    _, tool = model.load_tool_info(MODULE, types.SimpleNamespace(container=False))
    locator = BaseTool.ToolLocator(tool_directory=tool_dir)
    executable = tool.executable(locator)
    program = os.path.join(work, "countdown.c")
    with open(program, "w") as f:
        f.write(PROGRAM)
    prp = os.path.join(work, "termination.prp")
    with open(prp, "w") as f:
        f.write("CHECK( init(main()), LTL(F end) )\n")
    limits = BaseTool.ResourceLimits(cputime=20, cputime_hard=25)
    cmdline = model.cmdline_for_run(tool, executable, [], [program], None, prp,
                                    {"language": "C", "data_model": "ILP32"}, limits)
    print("command line:", " ".join(cmdline))
    check(cmdline[1:4] == ["prove", "--format", "svcomp"] and cmdline[-1] == program,
          "command line is `tessera prove --format svcomp ... TASK`")
    check(option(cmdline, "--timeout") == "18", "CPU-time limit 20 s becomes --timeout 18 (a bit under)")
    check(option(cmdline, "--data-model") == "ilp32", "task option data_model ILP32 becomes --data-model ilp32")
    check(option(cmdline, "--property") == prp, "the property file is passed with --property")
    try:
        proc = subprocess.run(cmdline, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True, timeout=60)
    except subprocess.TimeoutExpired:
        check(False, "tessera answers within 60 s on a 10-iteration loop")
        return
    print("tool output:\n" + proc.stdout)
    if proc.returncode >= 0:
        exit_code = util.ProcessExitCode.create(value=proc.returncode)
    else:
        exit_code = util.ProcessExitCode.create(signal=-proc.returncode)
    output = BaseTool.RunOutput(proc.stdout.splitlines(keepends=True))
    result = tool.determine_result(BaseTool.Run(cmdline, exit_code, output, None))
    print("result:", result)
    check(result in ANSWERS.values(), f"a real run gives true, false(termination) or unknown (got {result})")


def make_sv_benchmarks(work):
    root = os.path.join(work, "sv-benchmarks", "c")
    os.makedirs(os.path.join(root, "properties"))
    with open(os.path.join(root, "properties", "termination.prp"), "w") as f:
        f.write("CHECK( init(main()), LTL(F end) )\n")
    with open(os.path.join(root, "properties", "unreach-call.prp"), "w") as f:
        f.write("CHECK( init(main()), LTL(G ! call(reach_error())) )\n")
    for name in TASK_SETS:
        folder = os.path.join(root, name.lower())
        os.makedirs(folder)
        stem = "loop-" + name.lower()
        with open(os.path.join(folder, stem + ".c"), "w") as f:
            f.write(PROGRAM)
        for task, prop, data_model in [(stem, "termination", DATA_MODELS[name]),
                                       ("reach-" + name.lower(), "unreach-call", "ILP32")]:
            with open(os.path.join(folder, task + ".yml"), "w") as f:
                f.write(f"format_version: '2.0'\ninput_files: '{stem}.c'\nproperties:\n"
                        f"  - property_file: ../properties/{prop}.prp\n    expected_verdict: true\n"
                        f"options:\n  language: C\n  data_model: {data_model}\n")
    defs = os.path.join(work, "bench-defs")
    os.makedirs(defs)
    with open(os.path.join(HERE, "tessera-termination.xml")) as f:
        xml = f.read()
    check('tool="tessera"' in xml, "benchmark definition names tool tessera")
    path = os.path.join(defs, "tessera-termination.xml")
    with open(path, "w") as f:
        f.write(xml.replace('tool="tessera"', f'tool="{MODULE}"'))
    return path


def check_benchmark_definition(work, tool_dir):
    import benchexec.benchexec
    from benchexec import model, tooladapter

    path = make_sv_benchmarks(work)
    parser = benchexec.benchexec.BenchExec().create_argument_parser()
    config = parser.parse_args([path, "--no-container", "--tool-directory", tool_dir,
                                "--outputpath", os.path.join(work, "results") + os.sep])
    benchmark = model.Benchmark(path, config, datetime.datetime.now())
    benchmark.executable = benchmark.tool.executable(tooladapter.create_tool_locator(config))
    check(benchmark.rlimits.cputime == 900 and benchmark.rlimits.memory == 15 * 10**9,
          f"limits 15 min CPU time, 15 GB memory (got {benchmark.rlimits})")
    names = [rs.name for rs in benchmark.run_sets]
    check(names == ["SV-COMP-termination"], f"one run definition SV-COMP-termination (got {names})")
    runs = [run for rs in benchmark.run_sets for run in rs.runs]
    check(len(runs) == len(TASK_SETS),
          f"one run per termination task, none for the unreach-call tasks ({len(runs)} of {len(TASK_SETS)})")
    for run in runs:
        cmdline = run.cmdline()
        name = os.path.basename(cmdline[-1])
        expected_model = next((DATA_MODELS[n].lower() for n in TASK_SETS if name == f"loop-{n.lower()}.c"), None)
        check(cmdline[1:4] == ["prove", "--format", "svcomp"] and expected_model is not None
              and option(cmdline, "--timeout") == "855" and option(cmdline, "--data-model") == expected_model
              and (option(cmdline, "--property") or "").endswith("termination.prp")
              and run.propertyfile.endswith("termination.prp"),
              "run " + " ".join(os.path.relpath(c, work) if os.path.isabs(c) else c for c in cmdline))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    tool_dir = os.path.abspath(sys.argv[1])
    if not os.access(os.path.join(tool_dir, "tessera"), os.X_OK):
        sys.exit(f"no executable {tool_dir}/tessera (build it with `cargo build --release`)")
    work = tempfile.mkdtemp(prefix="tessera-benchexec-")
    try:
        pythonpath = make_package(work)
        print("== benchexec.test_tool_info", flush=True)
        check_with_test_tool_info(work, pythonpath, tool_dir)
        print("== one real run", flush=True)
        check_real_run(work, tool_dir)
        print("== benchmark definition", flush=True)
        check_benchmark_definition(work, tool_dir)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} BenchExec check(s) failed")
        return 1
    print("all BenchExec checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
