# What users print while debugging: shape/size/dim/numel/ndimension/nelement, stride,
# element_size, is_contiguous, storage_offset of slices, dtype.is_floating_point, is_signed
import torch

x = torch.arange(24.0).view(2, 3, 4)
print(x.shape, x.size(), x.size(1), x.size(-1), x.dim(), x.ndimension(), x.numel(), x.nelement())
print(x.stride(), x.stride(0), x[:, 1].stride(), x[:, 1].storage_offset(), x[1, :, 2:].storage_offset())
print(x.element_size(), x.float().element_size(), x.int().element_size(), x.bool().element_size())
print(x.is_contiguous(), x.transpose(0, 2).is_contiguous(), x[:, :, ::2].is_contiguous())
print(x.dtype.is_floating_point, torch.int8.is_signed, torch.uint8.is_signed, torch.bool.is_floating_point)
print(x.dtype.itemsize, torch.complex64.is_complex, torch.float16.to_complex() if hasattr(torch.float16, "to_complex") else None)
print(x.is_floating_point(), x.long().is_floating_point(), x.is_complex(), x.is_leaf, x.requires_grad)
print(len(x), x.T.shape if x.dim() == 2 else x.mT.shape, x.ndim, x.itemsize, x.nbytes)
print(torch.Size([2, 3]) == (2, 3), torch.Size([2, 3]).numel(), list(torch.Size([4, 5])), torch.Size([]))
s = x.shape
print(s[1:], type(s[1:]).__name__, s + (7,), s.count(2) if hasattr(s, "count") else None, s.index(3))
print(x.new_empty(0).shape, x.new_empty((2, 0)).numel(), x[0, 0, 0].shape, x[0, 0, 0].dim())
print(repr(x.dtype), str(x.dtype), x.dtype == torch.double, torch.float is torch.float32, torch.long)
print(x.is_set_to(x), x.data_ptr() == x.view(-1).data_ptr(), x.untyped_storage().nbytes())
