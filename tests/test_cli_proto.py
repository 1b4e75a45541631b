"""prial proto --out DIR: the include tree a code generator needs, exactly
the contract the installed package speaks and the google/rpc messages its
errors travel in; existing files are never silently replaced."""

from __future__ import annotations

import os
from pathlib import Path

import grpc_tools
import pytest
from google.protobuf import descriptor_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_tools import protoc

from prial.cli import main
from prial.v1 import prial_pb2

SOURCE = Path(__file__).resolve().parent.parent / "protos" / "prial" / "v1" / "prial.proto"
FILES = ("prial/v1/prial.proto", "google/rpc/status.proto", "google/rpc/error_details.proto")


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("prial: error: "), err
    return err


def write(out: Path, capsys, *options: str) -> list[str]:
    assert main(["proto", "--out", str(out), *options]) == 0
    return capsys.readouterr().out.splitlines()


def test_writes_the_tree_and_says_how_to_generate(tmp_path, capsys):
    out = tmp_path / "protos"
    lines = write(out, capsys)
    assert lines[:3] == [str(out / name) for name in FILES]
    assert lines[3] == f"generate code with: protoc -I {out} --LANG_out=OUT {' '.join(FILES)}"
    assert (out / "prial/v1/prial.proto").read_bytes() == SOURCE.read_bytes()
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == sorted(FILES)


def compiled(out: Path, tmp_path: Path) -> dict[str, descriptor_pb2.FileDescriptorProto]:
    """The tree compiled by protoc, its google/protobuf imports from protoc's own."""
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    descriptors = tmp_path / "set.binpb"
    assert protoc.main(["protoc", f"-I{out}", f"-I{well_known}", "--include_imports",
                        f"--descriptor_set_out={descriptors}", *FILES]) == 0
    files = descriptor_pb2.FileDescriptorSet.FromString(descriptors.read_bytes())
    return {file.name: file for file in files.file}


def installed(module) -> descriptor_pb2.FileDescriptorProto:
    proto = descriptor_pb2.FileDescriptorProto()
    module.DESCRIPTOR.CopyToProto(proto)
    return proto


def without_json_names(proto: descriptor_pb2.FileDescriptorProto) -> descriptor_pb2.FileDescriptorProto:
    """protoc fills in each field's JSON name; the embedded descriptors leave
    the default one out."""
    def clear(messages) -> None:
        for message in messages:
            for field in message.field:
                field.ClearField("json_name")
            clear(message.nested_type)

    proto = descriptor_pb2.FileDescriptorProto.FromString(proto.SerializeToString())
    clear(proto.message_type)
    return proto


def test_the_tree_compiles_to_what_the_package_and_its_errors_speak(tmp_path, capsys):
    out = tmp_path / "protos"
    write(out, capsys)
    files = compiled(out, tmp_path)
    for name, module in [("prial/v1/prial.proto", prial_pb2), ("google/rpc/status.proto", status_pb2),
                         ("google/rpc/error_details.proto", error_details_pb2)]:
        assert without_json_names(files[name]) == without_json_names(installed(module)), name
    assert [m.name for m in files["prial/v1/prial.proto"].service[0].method][:2] == ["Evaluate", "EvaluateStream"]


def test_writing_again_leaves_the_files_alone(tmp_path, capsys):
    out = tmp_path / "protos"
    write(out, capsys)
    os.utime(out / FILES[0], (0, 0))
    lines = write(out, capsys)
    assert lines[:3] == [f"{out / name} (unchanged)" for name in FILES]
    assert (out / FILES[0]).stat().st_mtime == 0


def test_a_differing_file_is_replaced_only_with_overwrite(tmp_path, capsys):
    out = tmp_path / "protos"
    write(out, capsys)
    (out / FILES[0]).write_text("// an older prial.proto\n")
    (out / FILES[1]).unlink()
    assert main(["proto", "--out", str(out)]) == 1
    assert one_error_line(capsys) == (f"prial: error: {out / FILES[0]} exists and differs from this prial's: "
                                      f"--overwrite replaces it\n")
    assert not (out / FILES[1]).exists(), "nothing is written when one file is refused"
    lines = write(out, capsys, "--overwrite")
    assert lines[:3] == [str(out / FILES[0]), str(out / FILES[1]), f"{out / FILES[2]} (unchanged)"]
    assert (out / FILES[0]).read_bytes() == SOURCE.read_bytes()


def test_several_differing_files_are_counted(tmp_path, capsys):
    out = tmp_path / "protos"
    write(out, capsys)
    for name in FILES[1:]:
        (out / name).write_text("// not Google's\n")
    assert main(["proto", "--out", str(out)]) == 1
    assert f"{out / FILES[1]} (and 1 more) exists and differs" in one_error_line(capsys)


def test_a_directory_in_the_way_is_refused_even_with_overwrite(tmp_path, capsys):
    out = tmp_path / "protos"
    (out / FILES[0]).mkdir(parents=True)
    assert main(["proto", "--out", str(out), "--overwrite"]) == 1
    assert one_error_line(capsys) == f"prial: error: {out / FILES[0]} is in the way: it is not a file\n"
    assert not (out / "google").exists()


def test_out_must_be_a_directory_whose_parent_exists(tmp_path, capsys):
    regular = tmp_path / "notes.txt"
    regular.write_text("")
    assert main(["proto", "--out", str(regular)]) == 1
    assert one_error_line(capsys) == f"prial: error: --out {regular}: not a directory\n"
    deep = tmp_path / "no" / "such" / "protos"
    assert main(["proto", "--out", str(deep)]) == 1
    assert one_error_line(capsys) == (f"prial: error: --out {deep}: {deep.parent} does not exist "
                                      f"(prial proto makes DIR, not its parents)\n")
    assert not (tmp_path / "no").exists()
    under_a_file = regular / "protos"
    assert main(["proto", "--out", str(under_a_file)]) == 1
    assert one_error_line(capsys) == (f"prial: error: --out {under_a_file}: {regular} is not a directory "
                                      f"(prial proto makes DIR, not its parents)\n")


def test_out_is_required(capsys):
    with pytest.raises(SystemExit) as info:
        main(["proto"])
    assert info.value.code == 2
    assert "the following arguments are required: --out" in one_error_line(capsys)


def test_the_proto_names_its_go_package():
    # protoc-gen-go needs a Go import path: in the file, not on every command line.
    go_package = prial_pb2.DESCRIPTOR.GetOptions().go_package
    path, _, name = go_package.partition(";")
    assert path.endswith("/prial/v1") and name == "prialv1"
