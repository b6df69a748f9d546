# register_buffer misuse: non-tensor, dotted name, existing attribute; assigning to a buffer name
import torch
import torch.nn as nn

m = nn.Module()
def show(fn):
    try:
        fn()
        print("ok")
    except Exception as e:
        print(type(e).__name__ + ":", e)

show(lambda: m.register_buffer("a", [1, 2]))
show(lambda: m.register_buffer("a.b", torch.zeros(1)))
show(lambda: m.register_buffer("", torch.zeros(1)))
m.x = 3
show(lambda: m.register_buffer("x", torch.zeros(1)))
m.register_buffer("buf", torch.zeros(2))
m.buf = torch.ones(2)
print(dict(m.named_buffers()))
show(lambda: setattr(m, "buf", 5))
m.buf = None
print(list(m.named_buffers()), m.state_dict())
show(lambda: m.register_parameter("p", torch.zeros(1)))
