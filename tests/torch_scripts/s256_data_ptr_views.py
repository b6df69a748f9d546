import torch

x = torch.arange(24.0).reshape(4, 6)
item = x.element_size()
for name, v in [("row2", x[2]), ("col3", x[:, 3]), ("block", x[1:3, 2:5]), ("t", x.t()),
                ("diag", x.diagonal()), ("unsq", x.unsqueeze(0)), ("det", x.detach()),
                ("narrow", x.narrow(1, 4, 2)), ("chunk", x.chunk(2, 0)[1])]:
    print(name, (v.data_ptr() - x.data_ptr()) // item, v.storage_offset(), v.stride())
y = x.clone()
print(y.data_ptr() == x.data_ptr(), x.view(-1).data_ptr() == x.data_ptr())
