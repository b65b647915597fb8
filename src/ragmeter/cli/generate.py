"""``ragmeter generate`` and ``ragmeter graph``: test sets from a folder of documents.

The commands live in the ``ragmeter`` CLI (one entry point for users) but the work is
``testset_gen``'s, imported when a command runs so that ``ragmeter evaluate`` does not pay
for loading the document parsers.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any, Optional

import typer
from rich.table import Table

from ragmeter.cli.caught_warnings import print_warnings
from ragmeter.cli.console import app, err, out, setup_logging
from ragmeter.cli.conversation_sets import CONVERSATIONS_HELP, TURNS_HELP, write_conversations
from ragmeter.cli.exits import plain_errors
from ragmeter.cli.options import judge_option_group
from ragmeter.errors import InvalidOption
from ragmeter.extras import check, check_all
from ragmeter.judges.options import JudgeOptions

graph_app = typer.Typer(help="Build a knowledge graph from documents and inspect it.", no_args_is_help=True)
app.add_typer(graph_app, name="graph")


def _cache(cache_dir: Optional[Path], no_cache: bool) -> Any:
    from ragmeter.calls.cache import DiskCache

    if cache_dir is not None:
        os.environ["RAGMETER_CACHE_DIR"] = str(cache_dir)
    return False if no_cache else DiskCache((cache_dir / "cache.sqlite") if cache_dir else None)


def _report(result: Any) -> Table:
    """Per evolution type: asked, written, rejected by the filter and why (the three most
    frequent reasons), so a user sees why a set is short."""
    counts = result.written()
    rejections = result.rejections_by_type()
    table = Table("synthesizer" if result.personas else "evolution", "asked", "written", "rejected by filter", "main reasons",
                  title=f"test set: {len(result.testset)} of {sum(result.requested.values())} questions")
    table.columns[0].no_wrap = True  # "multi_hop_abstract" must stay readable in 80 columns
    table.columns[-1].overflow = "fold"  # a reason is wrapped whole, never cut to "JudgeOutputInval…"
    for kind, asked in result.requested.items():
        reasons = rejections.get(kind, {})
        top = sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        if not asked and not counts.get(kind) and not reasons:
            continue
        table.add_row(kind, str(asked), str(counts.get(kind, 0)), str(sum(reasons.values())),
                      ", ".join(f"{r} {n}" for r, n in top) or "-")
    return table


DEFAULT_MIX = "simple=0.5,reasoning=0.25,multi_context=0.25"


@app.command()
@judge_option_group
def generate(
    docs: Path = typer.Argument(..., help="Folder of documents (read recursively: .md .txt .html .rst .pdf .docx) or one file.", exists=True),
    size: int = typer.Option(..., "--size", "-n", min=1, help="Number of questions (of conversations with --conversations)."),
    out_path: Path = typer.Option(Path("testset.jsonl"), "--out", "-o", help="Where to write the test set (JSONL, one record per line)."),
    judge: str = typer.Option("local", "--judge", "-j", help="local (offline generator, no key) | openai:MODEL | openai:MODEL@URL | ollama:MODEL | azure:DEPLOYMENT@URL"),
    distribution: str = typer.Option(DEFAULT_MIX, "--distribution", "-d", help="Shares of simple, reasoning, multi_context, conditional."),
    seed: int = typer.Option(0, "--seed", help="Which chunks seed which question; same seed + same cache = same test set."),
    exact_mix: bool = typer.Option(False, "--exact-mix", help="Offline: keep the --distribution shares and write fewer questions when a type falls short (default: the other types write what they can in its place)."),
    graph_out: Optional[Path] = typer.Option(None, "--graph-out", help="Also save the knowledge graph (node-link JSON)."),
    chunk_tokens: int = typer.Option(256, "--chunk-tokens", min=16, help="Maximum tokens per chunk."),
    overlap_tokens: int = typer.Option(32, "--overlap-tokens", min=0, help="Tokens of whole sentences repeated between neighbouring chunks."),
    cache_dir: Optional[Path] = typer.Option(None, "--cache-dir", help="Where the sqlite cache and journals live (default ~/.cache/ragmeter)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the judge cache."),
    resume: bool = typer.Option(True, "--resume/--no-resume", help="Keep the questions an interrupted identical run already accepted."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log retries and repairs."),
    synthesizers: Optional[str] = typer.Option(None, "--synthesizers", help="LLM judge: write with the knowledge-graph synthesizers instead of evolutions, in these shares: single_hop_specific=0.5,multi_hop_specific=0.25,multi_hop_abstract=0.25 (any of the next four options also switches to them)."),
    personas: Optional[Path] = typer.Option(None, "--personas", help="Synthesizers: a JSON list or JSONL file of {\"name\", \"role_description\"} to write for (default: derived from the documents).", exists=True, dir_okay=False),
    num_personas: Optional[int] = typer.Option(None, "--num-personas", min=1, help="Synthesizers: how many personas to derive from the documents (default 3)."),
    query_styles: Optional[str] = typer.Option(None, "--query-styles", help="Synthesizers: shares of web_search, conversational, misspelled, formal (default equal)."),
    query_lengths: Optional[str] = typer.Option(None, "--query-lengths", help="Synthesizers: shares of short, medium, long (default equal)."),
    embedder: Optional[str] = typer.Option(None, "--embedder", help="Synthesizers: link chunks whose LLM summaries are similar, with this embedder (local | openai:MODEL[@URL])."),
    conversations: bool = typer.Option(False, "--conversations", help=CONVERSATIONS_HELP),
    turns: int = typer.Option(3, "--turns", min=2, max=6, help=TURNS_HELP),
    judge_options: JudgeOptions = JudgeOptions(),
) -> None:
    """Generate a test set (question, ground truth, reference contexts) from documents."""
    with plain_errors():
        # it parses with spaCy (from [local]) with any judge, and reads files with [docs]
        check_all(("local", "docs"), "the test-set generator")
    if conversations:
        # options of the single-question path that a chat set would silently drop: said, not ignored
        unused = [name for name, given in (
            ("--distribution", distribution != DEFAULT_MIX),
            ("--exact-mix", exact_mix), ("--graph-out", graph_out is not None), ("--no-resume", not resume),
            ("--synthesizers", synthesizers is not None), ("--num-personas", num_personas is not None),
            ("--query-styles", query_styles is not None), ("--query-lengths", query_lengths is not None),
            ("--embedder", embedder is not None)) if given]
        if unused:
            with plain_errors():
                raise InvalidOption(f"{', '.join(unused)}: not used with --conversations (it takes --turns, "
                                    "--judge, --personas, --seed, --chunk-tokens, --overlap-tokens and the cache options)")
        setup_logging(verbose)
        write_conversations(docs, size, turns, out_path, judge=judge, seed=seed, cache=_cache(cache_dir, no_cache),
                            quiet=quiet, judge_options=judge_options, personas=personas,
                            chunk_tokens=chunk_tokens, overlap_tokens=overlap_tokens)
        return
    from ragmeter.calls.redact import mask_secrets
    from testset_gen.generator import generate as run_generate

    setup_logging(verbose)
    err.print(f"[bold]ragmeter generate[/bold]: {size} questions from {docs} with judge {mask_secrets(judge)}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with plain_errors("accepted questions are journalled; run the same command again to resume"):
                result = run_generate(
                    docs, size, judge=judge, distribution=distribution, seed=seed, exact_mix=exact_mix,
                    cache=_cache(cache_dir, no_cache), resume=resume, chunk_tokens=chunk_tokens,
                    overlap_tokens=overlap_tokens, show_progress=not quiet, judge_options=judge_options,
                    synthesizers=synthesizers, personas=personas if personas is not None else num_personas,
                    query_styles=query_styles, query_lengths=query_lengths, embedder=embedder,
                )
        except BaseException:
            print_warnings(caught)
            raise
    print_warnings(caught, skip_files=True)
    result.testset.to_jsonl(out_path)
    if graph_out is not None:
        result.graph.save(graph_out)
        err.print(f"knowledge graph written to {graph_out}")

    out.print(_report(result))
    if result.shortfall:
        # a judge that failed is named with its counts; only a judge that never failed lets
        # the documents take the blame
        from testset_gen.generator import judge_blame

        cause = (judge_blame(result) + ", and drafts were rejected as the table says"
                 if result.judge_faults else
                 "the documents gave no more questions that pass the filter")
        instead = ("; written in their place, from what passed the same checks: "
                   + ", ".join(f"{n} more {k}" for k, n in result.filled.items())
                   + " (--exact-mix keeps the shares)" if result.filled else " (never padded)")
        err.print("short by " + ", ".join(f"{k} {v}" for k, v in result.shortfall.items())
                  + f": {cause}{instead}", highlight=False, markup=False)
    if result.personas:
        err.print("personas: " + "; ".join(p.name for p in result.personas), highlight=False, markup=False)
    stats = result.graph.stats()
    err.print(f"{stats['nodes']['document']} documents, {stats['nodes']['chunk']} chunks, {stats['bridges']} bridges")
    if result.skipped:
        err.print(f"skipped {len(result.skipped)} file(s):")
        for path, reason in dict(result.skipped).items():  # each file once
            err.print(f"  {path}: {reason}", highlight=False, markup=False)
    if result.usage is not None:
        per = result.calls_per_question
        err.print(f"judge: {result.usage.calls} calls ({per:.2f} per question), {result.usage.cache_hits} cache hits, "
                  f"{result.usage.prompt_tokens} prompt + {result.usage.completion_tokens} completion tokens; "
                  f"{len(result.rejected)} questions rejected" if per is not None else
                  f"judge: {result.usage.calls} calls")
    err.print(f"test set written to {out_path}")


@graph_app.command("build")
def graph_build(
    docs: Path = typer.Argument(..., help="Folder of documents or one file.", exists=True),
    out_path: Path = typer.Option(Path("graph.json"), "--out", "-o", help="Where to write the graph (node-link JSON)."),
    chunk_tokens: int = typer.Option(256, "--chunk-tokens", min=16),
    overlap_tokens: int = typer.Option(32, "--overlap-tokens", min=0),
) -> None:
    """Read documents, cut them into chunks and save their knowledge graph (no LLM)."""
    with plain_errors():
        check_all(("local", "docs"), "reading documents")  # unstructured splits sentences with spaCy
    from testset_gen.documents.chunking import chunk_documents
    from testset_gen.graph.knowledge_graph import build_graph
    from testset_gen.documents.ingest import load_documents

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ingested = load_documents(docs)
    print_warnings(caught)
    if not ingested.documents:
        err.print(f"[red]error:[/red] no readable documents in {docs}")
        raise typer.Exit(2)
    chunks = chunk_documents(ingested.documents, max_tokens=chunk_tokens, overlap_tokens=overlap_tokens)
    graph = build_graph(ingested.documents, chunks)
    graph.save(out_path)
    _print_stats(graph.stats())
    err.print(f"knowledge graph written to {out_path}")


@graph_app.command("stats")
def graph_stats(
    path: Path = typer.Argument(..., help="A graph saved by `ragmeter graph build` or `generate --graph-out`.", exists=True, dir_okay=False),
) -> None:
    """Print what a saved knowledge graph holds: nodes, edges by kind, entities."""
    from testset_gen.graph.knowledge_graph import KnowledgeGraph

    try:
        graph = KnowledgeGraph.load(path)
    except (ValueError, KeyError) as exc:
        err.print(f"[red]error:[/red] {path} is not a knowledge graph: {exc}")
        raise typer.Exit(2)
    _print_stats(graph.stats())


def _print_stats(stats: dict[str, Any]) -> None:
    table = Table("measure", "value", title="knowledge graph")
    for key, value in stats.items():
        if isinstance(value, dict):
            for sub, v in value.items():
                table.add_row(f"{key}: {sub}", _fmt(v))
        else:
            table.add_row(key, _fmt(value))
    out.print(table)


def _fmt(value: Any) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)
