import torch

i = torch.tensor([1, 2, 3])
b = torch.tensor([True, False, True])
h = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float16)
f = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float32)
u8 = torch.tensor([200, 100, 50], dtype=torch.uint8)
i8 = torch.tensor([-1, 2, 3], dtype=torch.int8)
for name, r in [("i+b", i + b), ("b+b", b + b), ("h+i", h + i), ("h+f", h + f), ("i*2.5", i * 2.5),
                ("u8+i8", u8 + i8), ("i/2", i / 2), ("i//2", i // 2), ("b*1.0", b * 1.0),
                ("h*2", h * 2), ("u8*2", u8 * 2), ("f+1j", f + 1j), ("i8-1", i8 - 1),
                ("h.sum", h.sum()), ("i.mean", i.float().mean()), ("b.sum", b.sum()),
                ("u8.sum", u8.sum()), ("i.prod", i.prod()), ("h+tensor(1.)", h + torch.tensor(1.0)),
                ("i+tensor(1.)", i + torch.tensor(1.0)), ("i8+tensor(1000)", i8 + torch.tensor(1000))]:
    print(name, r, r.dtype)
print(torch.result_type(i, 1.0), torch.result_type(h, i), torch.result_type(u8, i8))
print(torch.promote_types(torch.int32, torch.float16), torch.can_cast(torch.float64, torch.int32))
print(torch.where(b, i, 0.5), torch.where(b, h, f).dtype)
print(torch.cat([i, f]).dtype, torch.stack([h, h]).dtype)
print(torch.tensor([1, 2]).to(torch.float16) / 3)
print(h.float() ** 2, (h ** 2).dtype)
print(torch.tensor(65504.0, dtype=torch.float16) * 2)
print(torch.tensor([1.0e-8], dtype=torch.float16), torch.finfo(torch.float16).eps)
print(torch.iinfo(torch.int8).min, torch.iinfo(torch.uint8).max)
