import warnings

import torch

warnings.simplefilter("ignore")
x = torch.arange(12.0).reshape(3, 4)
views = {"t": x.t(), "row": x[1], "col": x[:, 2], "flat": x.view(-1)[5:], "clone": x.clone()}
for name, v in views.items():
    same = v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(name, same, v.storage_offset(), v.is_contiguous(), v.untyped_storage().nbytes())
s = x[1:].storage()
print(len(s), s.size(), s.dtype, s.element_size(), s.nbytes(), s[5])
print(x.storage_type(), torch.tensor([1, 2]).storage_type())
print(torch.tensor([1.5, 2.5]).storage())
print(torch.tensor([1, 2], dtype=torch.int16).untyped_storage().tolist())
print(torch.is_storage(s), torch.is_storage(x))
