# torch.serialization.add_safe_globals: allowlisting a class for torch.load(weights_only=True)
import argparse
import os
import pickle
import tempfile
import torch

Config = argparse.Namespace  # (the usual unsupported global of old training checkpoints)

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "ckpt.pt")
    torch.save({"w": torch.ones(2), "cfg": Config(lr=0.1)}, path)
    try:
        torch.load(path, weights_only=True)
    except pickle.UnpicklingError as e:
        print("refused:", "argparse.Namespace" in str(e), "add_safe_globals" in str(e))
    torch.serialization.add_safe_globals([Config])
    print(Config in torch.serialization.get_safe_globals())
    ck = torch.load(path, weights_only=True)
    print(ck["w"], ck["cfg"].lr)
    torch.serialization.clear_safe_globals()
    print(Config in torch.serialization.get_safe_globals())
    with torch.serialization.safe_globals([Config]):
        print(torch.load(path, weights_only=True)["cfg"].lr)
    print(len(torch.serialization.get_safe_globals()))
    print(torch.load(path, weights_only=False)["cfg"].lr)
    torch.save([1, 2.5, "s", (3, None), {"k": True}], path)
    print(torch.load(path, weights_only=True))
    torch.serialization.add_safe_globals([(argparse.Namespace, "argparse.Namespace")])
    torch.save({"args": Config(a=1, b=[2, 3]), "t": torch.arange(3)}, path)
    back = torch.load(path)
    print(back["args"], back["t"])
    torch.serialization.clear_safe_globals()
