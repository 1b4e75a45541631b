"""Reading and writing hand logs (Parquet, CSV, JSON Lines) for ``prial score``.

Readers stream the input in tables of at most ``chunk_rows`` rows so memory
stays bounded whatever the file size; writers turn scored Parquet parts into
the requested output format, part by part.
"""

from __future__ import annotations

import codecs
import json
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.json as pajson
import pyarrow.parquet as pq

from .columns import FLAG_COLUMNS, READ_PROBLEM, TEXT_COLUMNS
from .typed import MisshapenRows, json_rows, with_no_problems
from .errors import LogError

BLOCK_BYTES = 8 << 20
# Output row groups have a fixed size, so the file does not depend on how
# the job was chunked (or interrupted and resumed).
ROW_GROUP_ROWS = 1 << 20


def _known_types(columns: Iterable[str], flags: pa.DataType) -> dict[str, pa.DataType]:
    """Types fixed up front for the log's own columns, so a streaming reader
    never guesses them from the first block alone.  CSV flags are read as
    text (``flags``) and checked row by row (prial.logs.typed)."""
    types: dict[str, pa.DataType] = {}
    for name in columns:
        if name in TEXT_COLUMNS:
            types[name] = pa.string()
        elif name in FLAG_COLUMNS:
            types[name] = flags
    return types


@contextmanager
def _undecodable_rows_unsaid() -> Iterator[None]:
    """Arrow hands a CSV row it skips to its handler as text; a row that is
    not UTF-8 (a binary file read as CSV) fails before the handler runs,
    and the reader stops (ArrowInvalid, said in one line as any).  Python
    would print that failure on stderr on top: it is left unsaid."""
    previous = sys.unraisablehook

    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, UnicodeDecodeError):
            previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous


def _content(path: str) -> str:
    """What the file holds, from its first bytes: "Parquet" (its magic
    number), "text" (UTF-8 without NUL bytes), "binary" or "empty"."""
    with open(path, "rb") as f:
        head = f.read(1 << 16)
    if not head:
        return "empty"
    if head.startswith(b"PAR1"):
        return "Parquet"
    if b"\0" in head:
        return "binary"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head)  # a character cut at the end is no fault
    except UnicodeDecodeError:
        return "binary"
    return "text"


def check_content(path: str, fmt: str) -> None:
    """LogError unless ``path`` exists and its first bytes could be ``fmt``
    (a text file read as Parquet, a Parquet file as CSV, an empty file)."""
    if not os.path.exists(path):
        raise LogError(f"no such input file: {path}", status=1)
    found = _content(path)
    if found == "empty" or (found != "Parquet" if fmt == "parquet" else found in ("Parquet", "binary")):
        what = {"Parquet": "is a Parquet file, not text", "binary": "holds binary data, not text",
                "empty": "is empty", "text": "is text, not a Parquet file"}[found]
        if fmt == "parquet" and found == "binary":
            what = "is not a Parquet file, or a damaged one"
        raise LogError(f"cannot read {path} as {fmt}: it {what}"
                       + ("; pass the format it is in" if found in ("Parquet", "text") else ""), status=1)


def _python_type(value: object) -> pa.DataType:
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int):
        return pa.int64()
    if isinstance(value, float):
        return pa.float64()
    return pa.string()


class InputReader:
    """Streams a log as tables of ``chunk_rows`` rows (the last may be shorter)."""

    def __init__(self, path: str | os.PathLike, fmt: str, chunk_rows: int, columns: list[str] | None = None) -> None:
        self.path = str(path)
        self.fmt = fmt
        self.chunk_rows = chunk_rows
        self.columns = columns  # read only these (Parquet and CSV skip the others' bytes)
        self.total_rows: int | None = None
        self._file = None
        self._order: list[str] | None = None  # JSON: the columns in the file's order
        self._by_rows_from: int | None = None  # JSON: read row by row from this row on (prial.logs.typed)
        self._misshapen = MisshapenRows()  # CSV: rows of the wrong number of fields
        # How far tables() has gone: rows handed out, and rows and bytes
        # pulled from the file (see done()).
        self._rows_given = self._rows_read = 0
        self._bytes_read = 0.0
        check_content(self.path, fmt)
        self.size = os.path.getsize(self.path)
        if fmt == "parquet":
            try:
                self._parquet = pq.ParquetFile(self.path)
            except (pa.ArrowInvalid, OSError) as exc:  # damaged: Arrow says how
                raise LogError(f"cannot read {self.path} as parquet: {exc}", status=1) from None
            self.total_rows = self._parquet.metadata.num_rows
            self.schema = self._parquet.schema_arrow
        elif fmt == "jsonl":
            try:
                stream = self._open_text()
                self.schema = pa.schema([stream.schema.field(name) for name in self._order or stream.schema.names])
            except LogError:  # a value of the wrong type in the first block: read row by row
                self.schema = self._first_line_schema()
                self._by_rows_from = 0
        else:
            stream = self._open_text()
            self.schema = pa.schema([stream.schema.field(name) for name in stream.schema.names])

    def _open_text_file(self) -> None:
        if self._file is not None:
            self._file.close()
        self._file = open(self.path, "rb")  # noqa: SIM115 (closed by close())

    def _open_text(self):
        self._open_text_file()
        try:
            if self.fmt == "csv":
                self._misshapen = MisshapenRows()
                with _undecodable_rows_unsaid():
                    # Without threads, as the reader then numbers the rows it skips.
                    header = pacsv.open_csv(self.path,
                                            read_options=pacsv.ReadOptions(block_size=1 << 16, use_threads=False),
                                            parse_options=pacsv.ParseOptions(invalid_row_handler=lambda row: "skip"),
                                            ).schema.names
                    return pacsv.open_csv(
                        self._file,
                        read_options=pacsv.ReadOptions(block_size=BLOCK_BYTES, use_threads=False),
                        parse_options=pacsv.ParseOptions(invalid_row_handler=self._misshapen.handler),
                        convert_options=pacsv.ConvertOptions(column_types=_known_types(header, pa.string()),
                                                             strings_can_be_null=True,
                                                             include_columns=self.columns or []),
                    )
            with open(self.path, "rb") as head:
                first = head.readline()
            fields = list(json.loads(first)) if first.strip() else []
            self._order = fields
            schema = pa.schema(list(_known_types(fields, pa.bool_()).items()))
            return pajson.open_json(
                self._file,
                read_options=pajson.ReadOptions(block_size=BLOCK_BYTES),
                parse_options=pajson.ParseOptions(explicit_schema=schema, unexpected_field_behavior="infer"),
            )
        except (pa.ArrowInvalid, ValueError) as exc:
            raise LogError(f"cannot read {self.path} as {self.fmt}: {exc}", status=1) from None

    def _first_line_schema(self) -> pa.Schema:
        """The columns of the first JSON line, typed by their values there
        (the log's own columns as usual)."""
        with open(self.path, "rb") as f:
            try:
                first = json.loads(f.readline())
            except ValueError as exc:
                raise LogError(f"cannot read {self.path} as jsonl: line 1 is not JSON ({exc})", status=1) from None
        if not isinstance(first, dict):
            raise LogError(f"cannot read {self.path} as jsonl: line 1 is not a JSON object", status=1)
        known = _known_types(first, pa.bool_())
        return pa.schema([(name, known.get(name) or _python_type(value)) for name, value in first.items()])

    def _json_batches(self) -> Iterator[tuple[pa.RecordBatch, float]]:
        """Arrow's reader while it can, then the rest row by row."""
        rows = 0
        if self._by_rows_from is None:
            try:
                for batch, end in self._block_ends(self._open_text()):
                    batch = batch.select(self._order) if self._order else batch
                    rows += batch.num_rows
                    yield with_no_problems(batch.cast(self.schema) if batch.schema != self.schema else batch), end
                return
            except (pa.ArrowInvalid, LogError):
                pass  # a value of the wrong type
        self._open_text_file()
        file = self._file
        for batch in json_rows(file, self.schema, rows):
            yield batch, file.tell()  # read line by line: the position is exact

    def _csv_batches(self) -> Iterator[tuple[pa.RecordBatch, float]]:
        """Arrow's reader, with the rows of the wrong number of fields in
        their places (READ_PROBLEM says what is wrong with them)."""
        stream = self._open_text()
        misshapen = self._misshapen

        def batches() -> Iterator[pa.RecordBatch]:
            while True:
                with _undecodable_rows_unsaid():
                    batch = next(stream, None)
                if batch is None:
                    return
                yield batch

        for batch, end in self._block_ends(batches()):
            yield misshapen.placed(batch), end
        rest = misshapen.rest(stream.schema)
        if rest is not None:
            yield rest, float(self.size)

    def _block_ends(self, batches: Iterable[pa.RecordBatch]) -> Iterator[tuple[pa.RecordBatch, float]]:
        """Each batch of Arrow's CSV or JSON reader with the byte its block
        ends at.  They parse a block (``BLOCK_BYTES``) a batch, and read
        ahead of what they have handed out, so the file's own position
        says little; it is still a bound."""
        end = 0
        for batch in batches:
            end = min(end + BLOCK_BYTES, self.size)
            yield batch, min(end, self._file.tell()) if self._file is not None else end

    def position(self) -> int:
        """How many of the file's first bytes have been read: where the
        text reader has got (it reads ahead of the rows handed out), all
        of a Parquet file (its footer, read first, describes all of it)."""
        if self.fmt == "parquet" or self._file is None or self._file.closed:
            return self.size
        return min(self._file.tell(), self.size)

    @property
    def unit(self) -> str:
        """What ``done()`` and ``total`` count: rows of Parquet, which says
        how many it holds; bytes of text, which does not."""
        return "rows" if self.fmt == "parquet" else "bytes"

    @property
    def total(self) -> float:
        return float(self.total_rows if self.fmt == "parquet" and self.total_rows is not None else self.size)

    def done(self) -> float:
        """How far the rows handed out by tables() reach into the file, in
        ``unit``s; for text, the bytes of the blocks read so far in
        proportion to the rows of them handed out."""
        if self.fmt == "parquet":
            return float(self._rows_given)
        if not self._rows_read:
            return 0.0
        return self._bytes_read * min(1.0, self._rows_given / self._rows_read)

    def _batches(self, skip: int) -> Iterator[pa.RecordBatch]:
        if self.fmt == "parquet":
            meta = self._parquet.metadata
            groups = []
            for g in range(meta.num_row_groups):
                rows = meta.row_group(g).num_rows
                if skip >= rows and not groups:
                    skip -= rows
                else:
                    groups.append(g)
            # One reader per row group: a reader over many row groups keeps
            # every pre-buffered row group's bytes until it ends (memory
            # would grow with the file).
            # Parquet's progress counts rows: no end byte to carry.
            batches: Iterator[tuple[pa.RecordBatch, float]] = (
                (batch, 0.0) for group in groups
                for batch in self._parquet.iter_batches(batch_size=self.chunk_rows, row_groups=[group],
                                                        columns=self.columns))
        else:
            batches = self._json_batches() if self.fmt == "jsonl" else self._csv_batches()
            if self.columns:  # and a row's problem, which it keeps
                batches = ((batch.select([*self.columns, READ_PROBLEM]), end) for batch, end in batches)
        for batch, end in batches:
            self._rows_read += batch.num_rows
            self._bytes_read = end
            if skip >= batch.num_rows:
                skip -= batch.num_rows
                continue
            if skip:
                batch, skip = batch.slice(skip), 0
            yield batch

    def tables(self, skip: int = 0) -> Iterator[pa.Table]:
        """Tables of exactly ``chunk_rows`` rows (the last may be shorter),
        starting after the first ``skip`` rows."""
        pending: list[pa.RecordBatch] = []
        held = 0
        self._rows_given = skip
        try:
            for batch in self._batches(skip):
                pending.append(batch)
                held += batch.num_rows
                while held >= self.chunk_rows:
                    table = pa.Table.from_batches(pending)
                    self._rows_given += self.chunk_rows
                    yield table.slice(0, self.chunk_rows)
                    rest = table.slice(self.chunk_rows)
                    pending, held = rest.to_batches(), rest.num_rows
            if held:
                self._rows_given += held
                yield pa.Table.from_batches(pending)
        except (pa.ArrowInvalid, OSError) as exc:  # a damaged file (Arrow's own words), or a failing disk
            raise LogError(f"cannot read {self.path} as {self.fmt}: {exc}", status=1) from None

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def plain_types(table: pa.Table) -> pa.Table:
    """Dictionary columns as plain strings (for CSV and JSON)."""
    for i, field in enumerate(table.schema):
        if pa.types.is_dictionary(field.type):
            table = table.set_column(i, field.name, table.column(i).cast(field.type.value_type))
    return table


def fixed_row_groups(tables: Iterable[pa.Table], rows: int = ROW_GROUP_ROWS) -> Iterator[pa.Table]:
    """Re-cut a stream of tables into tables of exactly ``rows`` rows."""
    pending: list[pa.Table] = []
    held = 0
    for table in tables:
        pending.append(table)
        held += table.num_rows
        while held >= rows:
            merged = pa.concat_tables(pending)
            yield merged.slice(0, rows)
            rest = merged.slice(rows)
            pending, held = [rest], rest.num_rows
    if held:
        yield pa.concat_tables(pending)


def _repeats(kind: pa.DataType) -> bool:
    """Columns of this type usually hold few distinct values."""
    if pa.types.is_integer(kind):
        return kind.bit_width <= 16
    return pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_dictionary(kind)


def write_tables(path: str, fmt: str, schema: pa.Schema, tables: Iterable[pa.Table]) -> None:
    """Writes a stream of tables (one schema) as ``fmt`` to ``path``."""
    if fmt == "parquet":
        # Dictionaries only where values repeat a lot (categories, flags,
        # player names, strengths); hand text and wide integers (deal ids,
        # keys) are nearly unique, and a dictionary there is built, then
        # abandoned.  Card text gets no statistics either: nobody filters on it.
        dictionary = [f.name for f in schema if f.name != "cards" and _repeats(f.type)]
        statistics = [f.name for f in schema if f.name != "cards"]
        with pq.ParquetWriter(path, schema, use_dictionary=dictionary, write_statistics=statistics) as writer:
            for table in fixed_row_groups(tables):
                writer.write_table(table, row_group_size=ROW_GROUP_ROWS)
    elif fmt == "csv":
        plain_schema = plain_types(schema.empty_table()).schema
        with pacsv.CSVWriter(path, plain_schema) as writer:
            for table in tables:
                writer.write_table(plain_types(table))
    else:
        with open(path, "w", encoding="utf-8") as out:
            for table in tables:
                for record in plain_types(table).to_pylist():
                    out.write(json.dumps(record, ensure_ascii=False, default=str))
                    out.write("\n")
