import torch
from torch import nn


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


torch.manual_seed(0)
X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5).shape, dropout_layer(X, 0.5).dtype)
print(dropout_layer(X, 1.))
d = dropout_layer(X, 0.5)
print(bool(((d == 0) | (d == 2 * X)).all()))
drop = nn.Dropout(0.5)
out = drop(torch.ones(1000))
print(set(out.unique().tolist()) <= {0.0, 2.0}, drop.training)
drop.eval()
print(drop(torch.ones(3)))
x = torch.ones(4, 4, requires_grad=True)
y = nn.functional.dropout(x, p=0.25, training=True)
y.sum().backward()
print(bool(((x.grad == 0) | (x.grad == 1 / 0.75)).all()), torch.equal(x.grad == 0, y == 0))
print(nn.functional.dropout(x, p=0.25, training=False) is x or torch.equal(nn.functional.dropout(x, p=0.25, training=False), x))

n_train, num_inputs, batch_size = 20, 50, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
feats = torch.sin(torch.arange(n_train * num_inputs, dtype=torch.float64) * 0.13).reshape(n_train, num_inputs)
labels = feats @ true_w + true_b


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def train(lambd):
    w = torch.full((num_inputs, 1), 0.1, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    for epoch in range(20):
        for i in range(0, n_train, batch_size):
            X, y = feats[i:i + batch_size], labels[i:i + batch_size]
            l = ((X @ w + b - y) ** 2 / 2).sum() + lambd * l2_penalty(w)
            l.backward()
            with torch.no_grad():
                for p in (w, b):
                    p -= 0.003 * p.grad / batch_size
                    p.grad.zero_()
    print('L2 norm of w:', round(torch.norm(w).item(), 6))


train(lambd=0)
train(lambd=3)


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.fill_(0.1)
    loss = nn.MSELoss(reduction='none')
    trainer = torch.optim.SGD([
        {"params": net[0].weight, 'weight_decay': wd},
        {"params": net[0].bias}], lr=0.003)
    for epoch in range(20):
        for i in range(0, n_train, batch_size):
            X, y = feats[i:i + batch_size], labels[i:i + batch_size]
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
    print('w的L2范数：', round(net[0].weight.norm().item(), 6), trainer.param_groups[0]['weight_decay'], trainer.param_groups[1]['weight_decay'])


train_concise(0)
train_concise(3)
