import torch

img = torch.tensor([[0, 1000, 65535], [300, 42, 7]], dtype=torch.uint16)
print(img)
print(img.dtype, img.dtype.is_signed, img.element_size(), torch.iinfo(torch.uint16))
f = img.to(torch.float32) / torch.iinfo(torch.uint16).max
print(f)
print(img.sum(), img.float().mean())
print(img * 2)
big = torch.tensor([2 ** 40, 5], dtype=torch.uint64)
print(big, big.tolist())
u32 = torch.zeros(3, dtype=torch.uint32)
print(u32, u32.dtype == torch.uint32, torch.uint32.itemsize)
print(img.numpy().dtype, img[0, 2].item(), img.flatten().sort().values)
