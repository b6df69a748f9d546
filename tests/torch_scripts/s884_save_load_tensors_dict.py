# torch.save / torch.load of various Python containers of tensors to BytesIO: nested dicts,
# lists, tuples, ints and strings, shared tensors kept shared, views saved whole, weights_only
import io
import torch

base = torch.arange(6.0)
obj = {"a": base, "b": [base, base[2:4]], "meta": {"epoch": 3, "name": "run1"}, "t": (torch.tensor(1), 2.5),
       "i": torch.tensor([1, 2], dtype=torch.int16), "bool": torch.tensor([True])}
buf = io.BytesIO()
torch.save(obj, buf)
buf.seek(0)
back = torch.load(buf, weights_only=True)
print(sorted(back.keys()), back["meta"], back["t"], back["i"].dtype, back["bool"])
print(back["b"][0] is back["a"], back["b"][1], back["b"][1].shape)
back["a"][0] = 100
print(back["b"][0][0], back["b"][1])
buf2 = io.BytesIO()
torch.save([torch.zeros(2, 3), torch.ones(0)], buf2)
buf2.seek(0)
print(torch.load(buf2))
buf3 = io.BytesIO()
torch.save(torch.nn.Linear(2, 1).state_dict(), buf3)
buf3.seek(0)
sd = torch.load(buf3, map_location="cpu")
print(type(sd).__name__, list(sd.keys()), sd["weight"].shape)
