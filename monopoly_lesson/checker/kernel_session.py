"""Run a submitted notebook in its own kernel, then ask that kernel questions, as data.

The notebook's cells run with nbclient past any that fail, their outputs capped. Then the
checker asks its questions through ``user_expressions`` of an execute request: evaluated in
the notebook's namespace (nothing is added to it) without passing through IPython's input
transformers, each answered as one JSON text that :mod:`monopoly_lesson.checker.answers` reads
strictly. The kernel decides nothing: it plays what it is asked and reports what happened.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import json
import os
import queue
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbformat.v4 import new_output

from .checked_kernel import CHECKED_ENV
from .isolation import Sandbox
from .kernel_hook import write_hook
from .sandbox import ProcessGuard, launcher_command

__all__ = ["ANSWER_LIMIT", "CELL_OUTPUT_LIMIT", "OUTPUT_LIMIT", "KernelSession", "Unanswered"]

CELL_OUTPUT_LIMIT = 1_000_000  # characters of output kept per cell
OUTPUT_LIMIT = 5_000_000  # characters of output kept for the whole notebook
ANSWER_LIMIT = 20_000_000  # characters of one answer from the kernel
ASK = (
    "__import__('monopoly_lesson.checker.probe', fromlist=['answer'])"
    ".answer({request!r}, globals())"
)
TRUNCATED = "\n[output cut by the checker: more than {limit:,} characters]\n"


class Unanswered(Exception):
    """The kernel gave no usable answer to a question (its reason in one line)."""


class _LimitedKernelManager(AsyncKernelManager):
    """Starts the kernel through the launcher, with the check's memory cap."""

    launcher: list[str] = []  # noqa: RUF012 - set on each instance

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        return [*self.launcher, *super().format_kernel_cmd(extra_arguments)]


class _CappedClient(NotebookClient):
    """nbclient's client, keeping at most so much output per cell and in all."""

    def output(self, outs: list, msg: dict, display_id: str | None, cell_index: int) -> object:
        size = len(json.dumps(msg.get("content", {}), default=str))
        self.kept = getattr(self, "kept", {})
        self.kept[cell_index] = self.kept.get(cell_index, 0) + size
        self.total_output = getattr(self, "total_output", 0) + size
        if self.kept[cell_index] <= CELL_OUTPUT_LIMIT and self.total_output <= OUTPUT_LIMIT:
            return super().output(outs, msg, display_id, cell_index)
        self.cut = getattr(self, "cut", set())
        if cell_index not in self.cut:
            self.cut.add(cell_index)
            over_cell = self.kept[cell_index] > CELL_OUTPUT_LIMIT
            text = TRUNCATED.format(limit=CELL_OUTPUT_LIMIT if over_cell else OUTPUT_LIMIT)
            outs.append(new_output("stream", name="stderr", text=text))
        return None


@dataclass
class KernelSession:
    """One notebook in one kernel: run its cells, then answer questions until closed."""

    notebook: object
    folder: str
    guard: ProcessGuard
    memory: int
    sandbox: Sandbox | None = None  # where the kernel runs isolated (None: not isolated)
    client: _CappedClient = field(init=False)
    running: int = 0  # the cell being run (numbered from 1), 0 before and once all have run
    cells_ran_in: float | None = None  # seconds the cells took, once all have run
    timed_out: bool = False  # a question went unanswered because the time limit ran out

    def __post_init__(self) -> None:
        manager = _LimitedKernelManager(kernel_name="python3")
        wrap: list[str] = []
        if self.sandbox is not None:  # no network in the sandbox: unix sockets, not TCP
            manager.transport, manager.connection_file = "ipc", self.sandbox.connection_file
            wrap = self.sandbox.kernel_command()
        manager.launcher = launcher_command(os.getpid(), self.memory, wrap=wrap)
        self.client = _CappedClient(
            self.notebook,
            km=manager,
            allow_errors=True,
            kernel_name="python3",
            timeout_func=lambda cell: max(1, int(self.guard.remaining()) + 1),
            startup_timeout=max(1, int(self.guard.remaining()) + 1),
            resources={"metadata": {"path": self.folder}},
            shutdown_kernel="immediate",  # it may be busy with questions no longer awaited
        )

    async def run(self, questions: object) -> object:
        """Start the kernel, run every cell, then call ``questions(self)`` (a coroutine).

        The kernel's environment has
        :data:`~monopoly_lesson.checker.checked_kernel.CHECKED_ENV` set, so that the notebook's
        figures are drawn without PNG images, and starts with the hook that withholds the
        answer key and the stored solutions (:mod:`monopoly_lesson.checker.kernel_hook`).
        """
        client = self.client
        with contextlib.ExitStack() as stack:
            if self.sandbox is not None:  # a folder the sandbox shows
                hooks = self.sandbox.sockets / "site"
                hooks.mkdir()
            else:
                hooks = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="mlk-")))
            write_hook(hooks)  # the answer key and the stored solutions are withheld
            path = os.pathsep.join(p for p in (str(hooks), os.environ.get("PYTHONPATH")) if p)
            environment = {**os.environ, CHECKED_ENV: "1", "PYTHONPATH": path}
            return await self._run(client, environment, questions)

    async def _run(self, client: _CappedClient, environment: dict, questions: object) -> object:
        async with client.async_setup_kernel(
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=environment,
        ):
            started = time.monotonic()
            for index, cell in enumerate(client.nb.cells):
                self.running = index + 1
                await client.async_execute_cell(cell, index)
            self.running, self.cells_ran_in = 0, time.monotonic() - started
            return await questions(self)  # type: ignore[operator]

    async def ask(self, request: dict) -> object:
        """Ask the kernel one question; its JSON answer, or :class:`Unanswered` with why."""
        return await self.receive(self.send(request))

    def send(self, request: dict) -> str:
        """Put a question to the kernel without waiting; :meth:`receive` its answer.

        The kernel answers in the order asked, so a checker can ask many questions and work
        on each answer while the kernel answers the next. Answers must be received in the
        order the questions were sent.
        """
        expression = ASK.format(request=json.dumps(request))
        return self.client.kc.execute(
            "", silent=True, store_history=False, user_expressions={"answer": expression}
        )

    async def receive(self, msg_id: str) -> object:
        """The answer to the question :meth:`send` returned ``msg_id`` for."""
        reply = await self._reply(msg_id)
        found = reply.get("content", {}).get("user_expressions", {}).get("answer", {})
        if not isinstance(found, dict) or found.get("status") != "ok":
            error = found.get("ename", "no answer") if isinstance(found, dict) else "no answer"
            raise Unanswered(f"the kernel could not answer ({str(error)[:100]})")
        return _decode(found.get("data", {}).get("text/plain"))

    async def _reply(self, msg_id: str) -> dict:
        """Wait for the reply to ``msg_id`` (until the deadline), draining other messages."""
        kc, manager = self.client.kc, self.client.km
        while True:
            await self._drain()
            if self.guard.remaining() <= 0:
                self.timed_out = True
                raise Unanswered("the time limit ran out")
            try:
                reply = await kc.get_shell_msg(timeout=min(1.0, self.guard.remaining() + 0.1))
            except (queue.Empty, asyncio.TimeoutError):
                if not await manager.is_alive():
                    raise DeadKernelError("Kernel died") from None
                continue
            if reply.get("parent_header", {}).get("msg_id") == msg_id:
                return reply

    async def _drain(self) -> None:
        """Drop what the kernel published (a question's output is not kept)."""
        for _ in range(10_000):
            try:
                await self.client.kc.get_iopub_msg(timeout=0)
            except (queue.Empty, asyncio.TimeoutError):
                return


def _decode(text: object) -> object:
    """The kernel's answer: a Python string literal holding JSON, read without running it."""
    if not isinstance(text, str) or len(text) > ANSWER_LIMIT:
        raise Unanswered("the kernel's answer is missing or too long")
    try:
        inner = ast.literal_eval(text)
        if not isinstance(inner, str):
            raise ValueError("not text")
        return json.loads(inner)
    except (ValueError, SyntaxError, RecursionError, MemoryError) as error:
        raise Unanswered(f"the kernel's answer is not readable ({type(error).__name__})") from None
