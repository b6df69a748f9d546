# Transforms: StickBreaking, Tanh, Power, Softplus, LowerCholesky, CorrCholesky, Reshape, Independent, Cat, Stack; biject_to
import torch
from torch.distributions import transforms as T, constraints, biject_to, transform_to

x = torch.tensor([0.2, -0.5, 1.0])
sb = T.StickBreakingTransform()
y = sb(x)
print(y, sb.inv(y), sb.log_abs_det_jacobian(x, y), sb.domain, sb.codomain)
for t in (T.TanhTransform(), T.PowerTransform(torch.tensor(3.0)), T.SoftplusTransform(), T.AbsTransform()):
    yy = t(x)
    print(type(t).__name__, yy, t.log_abs_det_jacobian(x, yy) if not isinstance(t, T.AbsTransform) else None)
lc = T.LowerCholeskyTransform()
print(lc(torch.tensor([[1.0, 2.0], [3.0, -1.0]])))
cc = T.CorrCholeskyTransform()
c = cc(x)
print(c, c @ c.T)
r = T.ReshapeTransform((6,), (2, 3))
print(r(torch.arange(6.0)).shape, r.inv(torch.zeros(2, 3)).shape)
cat = T.CatTransform([T.ExpTransform(), T.identity_transform], dim=0, lengths=[2, 1])
print(cat(x), T.StackTransform([T.ExpTransform(), T.AffineTransform(1.0, 2.0)], dim=0)(torch.ones(2, 2)))
print(biject_to(constraints.positive)(x), transform_to(constraints.interval(0.0, 2.0))(x), biject_to(constraints.simplex)(x))
print(constraints.positive.check(x), constraints.unit_interval.check(torch.tensor([0.0, 1.0, 1.5])), constraints.simplex.check(y))
it = T.IndependentTransform(T.ExpTransform(), 1)
print(it.log_abs_det_jacobian(x, it(x)), T.ExpTransform().inv.inv, T.ComposeTransform([]).event_dim)
