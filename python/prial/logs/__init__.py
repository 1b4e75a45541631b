"""Logs of played hands, read and scored: the floor ``prial.score`` and
``prial.audit`` both stand on (it imports neither).

- ``formats``: the file formats (no pyarrow); ``columns``: a log's columns;
- ``io``: the readers and writers; ``typed``: values of the wrong type,
  row by row;
- ``chunk``: the kernel scoring a chunk of whole deals (cards, keys,
  categories, descriptions); ``adjudicate``: deals found and decided;
- ``passes``: the pass over a log, one scored chunk of whole deals at a
  time; ``partitions``: the same on Dask;
- ``options``: how a log is scored, and the engines; ``errors``: the
  one error of a log or a job over one; ``progress``: how far a job is;
- ``journal``: a job's parts directory, its journal and the output
  writer; ``fingerprint``, ``lock`` and ``targets``: resuming, one job
  per output, what a job may write (``prial score`` and ``prial replay``);
- ``histories``: hand-history files (JSON Lines, nested Parquet, the flat
  form), read and written a deal a record.

Nothing is loaded here: ``import prial`` stays free of pyarrow.
"""
