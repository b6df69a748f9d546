# Formatting: f-strings on 0-d tensors, round(), int()/float(), str of lists of tensors, tolist of dtypes
import torch

t = torch.tensor(3.14159)
print(f"{t:.2f}", f"{t.item():.3e}", "{:>8.3f}|".format(t), f"{torch.tensor(7):d}" if False else int(torch.tensor(7)))
print(round(t.item(), 2), float(torch.tensor([2.5])), int(torch.tensor(9.99)), bool(torch.tensor([0.0])))
print([torch.tensor(1.5), torch.tensor([1, 2])])
print(torch.tensor([1.5, 2.0], dtype=torch.float32).tolist(), torch.tensor([1, 2]).tolist(), torch.tensor(True).tolist())
print(torch.tensor([[0.1, 0.2]]).numpy().dtype, torch.tensor([1]).numpy().dtype, torch.tensor(2.0).item().__class__.__name__)
print(str(torch.Size([2, 3])), torch.Size([2, 3]).numel(), torch.zeros(2, 3).size(1), torch.zeros(2, 3).shape[-1])
print(f"{t}", repr(t), t.__format__(""), format(torch.tensor(2), "03d") if False else "skip")
print("loss: {:.4f}".format(torch.tensor(0.123456)), "%.3f" % torch.tensor(1.0005).item())
print(torch.tensor([1.0, 2.0]).__repr__(), torch.tensor([]).tolist(), torch.tensor([[1]]).item())
