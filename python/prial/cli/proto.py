"""``prial proto``: the .proto files a client in another language generates
its code from, written out as the include tree protoc reads."""

from __future__ import annotations

import argparse
from importlib import resources
from pathlib import Path

from .common import Failure

CONTRACT = "prial/v1/prial.proto"

# The messages of the error details (google.rpc.Status in the trailers, a
# BadRequest among its details), from the googleapis-common-protos package
# whose Python code the server encodes them with, so the two cannot differ.
# Google's files, under the Apache License 2.0 (the header of each file).
ERROR_DETAILS = ("google/rpc/status.proto", "google/rpc/error_details.proto")
ERROR_DETAILS_SOURCE = "https://github.com/googleapis/googleapis/tree/master/google/rpc"


def proto_files() -> dict[str, bytes]:
    """Each file's path in the include tree -> its content."""
    contract = resources.files("prial.v1").joinpath("prial.proto")
    if not contract.is_file():
        raise Failure("this installation of prial has no prial/v1/prial.proto: reinstall prial "
                      "(pip install --force-reinstall prial) or take protos/prial/v1/prial.proto from its source")
    files = {CONTRACT: contract.read_bytes()}
    from google.rpc import status_pb2

    installed = Path(status_pb2.__file__).parent
    for name in ERROR_DETAILS:
        path = installed / Path(name).name
        if not path.is_file():
            raise Failure(f"{path} is missing from googleapis-common-protos: upgrade it "
                          f"(pip install -U googleapis-common-protos) or take {name} from {ERROR_DETAILS_SOURCE}")
        files[name] = path.read_bytes()
    return files


def cmd_proto(args: argparse.Namespace) -> int:
    """Writes every file under ``args.out``.  A file already there with the
    same content is left alone; one that differs is replaced only with
    ``--overwrite``, and without it nothing is written: a tree half of one
    prial and half of another would generate code matching neither."""
    out = Path(args.out)
    files = proto_files()
    if out.exists() and not out.is_dir():
        raise Failure(f"--out {out}: not a directory")
    if not out.exists() and not out.parent.is_dir():
        # Made, a mistyped parent would hide the files somewhere unexpected.
        problem = "is not a directory" if out.parent.exists() else "does not exist"
        raise Failure(f"--out {out}: {out.parent} {problem} (prial proto makes DIR, not its parents)")
    targets = {out / name: content for name, content in files.items()}
    unchanged = {path for path, content in targets.items() if path.is_file() and path.read_bytes() == content}
    blocking = [path for path in targets if path.exists() and path not in unchanged]
    for path in blocking:
        if not path.is_file():
            raise Failure(f"{path} is in the way: it is not a file")
    if blocking and not args.overwrite:
        more = f" (and {len(blocking) - 1} more)" if len(blocking) > 1 else ""
        raise Failure(f"{blocking[0]}{more} exists and differs from this prial's: --overwrite replaces it")
    for path, content in targets.items():
        if path in unchanged:
            print(f"{path} (unchanged)")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        print(path)
    print(f"generate code with: protoc -I {out} --LANG_out=OUT {' '.join(files)}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    proto = sub.add_parser(
        "proto", help="write out the .proto files of the gRPC service, for code generators",
        description=f"Write {CONTRACT} and the google/rpc files of its error details ({', '.join(ERROR_DETAILS)}) "
                    "under DIR, the include tree protoc reads (its google/protobuf imports are protoc's own). "
                    "A file already there with the same content is left alone.")
    proto.add_argument("--out", required=True, metavar="DIR", help="the include directory to write (made if missing)")
    proto.add_argument("--overwrite", action="store_true", help="replace files there that differ")
    proto.set_defaults(func=cmd_proto)
