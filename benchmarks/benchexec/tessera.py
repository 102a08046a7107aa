# BenchExec tool-info module for Tessera.
#
# Tessera proves termination (or non-termination) of C programs by reducing
# the search for ranking functions to safety questions over constrained Horn
# clauses (Urban, Gurfinkel, Kahsai: "Synthesizing Ranking Functions from
# Bits and Pieces", TACAS 2016).
#
# To use it with BenchExec, install this file as benchexec/tools/tessera.py
# (tool name "tessera"), or put it in any package on PYTHONPATH and name it by
# its full module name (see .ci/check_benchexec.sh).
#
# SPDX-License-Identifier: MIT

import benchexec.result as result
import benchexec.tools.template

# Exit codes of `tessera` when it could not produce an answer (README,
# "Exit codes"); BenchExec shows them as "ERROR (<category>)".
_ERROR_CATEGORIES = {
    1: "internal",
    2: "usage",  # also: a property other than termination
    3: "syntax",
    4: "unsupported",
    5: "io",
    101: "panic",
}


# Task option `data_model` (SV-COMP task definitions) -> `--data-model`.
_DATA_MODELS = {"ILP32": "ilp32", "LP64": "lp64"}


def _timeout_for(limit):
    """Seconds handed to `tessera --timeout` for a run limit: a bit under
    it (5 %, at least 2 s) so that Tessera stops by itself and prints UNKNOWN
    instead of being killed."""
    return max(1, int(limit - max(2, limit * 0.05)))


class Tool(benchexec.tools.template.BaseTool2):
    """
    Tool info for Tessera, a termination prover for C programs based on
    constrained Horn clauses and safety engines (PDR/IC3, BMC, Spacer).
    Tessera checks only the termination property (termination.prp).
    It prints TRUE, FALSE(termination) or UNKNOWN on the first line of its output
    when called as
    `tessera prove --format svcomp [--property P.prp] [--data-model ilp32|lp64]
    [--timeout SECONDS] TASK.c`.
    """

    def executable(self, tool_locator):
        return tool_locator.find_executable("tessera")

    def name(self):
        return "Tessera"

    def version(self, executable):
        # `tessera --version` prints "tessera 0.1.0".
        return self._version_from_tool(executable, line_prefix="tessera")

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "prove", "--format", "svcomp"]
        if task.property_file and "--property" not in options:
            # Tessera rejects every property but termination with exit code 2.
            cmd += ["--property", task.property_file]
        data_model = (task.options or {}).get("data_model")
        if data_model and "--data-model" not in options:
            if data_model not in _DATA_MODELS:
                raise benchexec.tools.template.UnsupportedFeatureException(
                    f"data model {data_model} (Tessera knows ILP32 and LP64)"
                )
            cmd += ["--data-model", _DATA_MODELS[data_model]]
        time_limit = rlimits.cputime or rlimits.walltime
        if time_limit and "--timeout" not in options:
            cmd += ["--timeout", str(_timeout_for(time_limit))]
        return cmd + list(options) + [task.single_input_file]

    def determine_result(self, run):
        first_line = next((line.strip() for line in run.output if line.strip()), "")
        if run.exit_code.value == 0:
            if first_line == "TRUE":
                return result.RESULT_TRUE_PROP
            if first_line == "FALSE(termination)":
                return result.RESULT_FALSE_TERMINATION
            if first_line == "UNKNOWN":
                return result.RESULT_UNKNOWN
            return result.RESULT_ERROR + " (unexpected output)"
        if run.exit_code.signal:
            return result.RESULT_ERROR + f" (signal {run.exit_code.signal})"
        category = _ERROR_CATEGORIES.get(
            run.exit_code.value, f"exit code {run.exit_code.value}"
        )
        return result.RESULT_ERROR + f" ({category})"
