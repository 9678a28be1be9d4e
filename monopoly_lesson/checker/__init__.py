"""The notebook checker: a submission run in its own kernel under limits, then graded from
its answers (``python -m monopoly_lesson check``)."""
