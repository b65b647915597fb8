"""The HTML report: one self-contained page per run, to read a run and to share it.

    from ragmeter.report import write_report
    write_report(EvaluationResult.load("result.json"), "report.html",
                 baseline=EvaluationResult.load("base.json"))

The page holds the summary score, each metric's score distribution, usage and cost, the
errors by kind, the comparison with a baseline run (paired bootstrap, from
``ragmeter.gate.compare``) and every sample with its reasons and verdicts. plotly.js is
inlined, so the file works offline and can be sent or archived as it is.
"""

from ragmeter.report.html import render_report, write_report

__all__ = ["render_report", "write_report"]
