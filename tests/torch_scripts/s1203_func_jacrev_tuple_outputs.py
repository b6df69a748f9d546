# jacrev/jacfwd with a tuple output and has_aux
import torch
from torch.func import jacrev, jacfwd

def f(x):
    y = x.sin()
    return (y, x.sum() * y), y.detach()

x = torch.tensor([0.0, 1.0, 2.0])
(Ja, Jb), aux = jacrev(f, has_aux=True)(x)
print(Ja)
print(Jb)
print(aux)
(Fa, Fb), aux2 = jacfwd(f, has_aux=True)(x)
print(torch.allclose(Ja, Fa), torch.allclose(Jb, Fb))
