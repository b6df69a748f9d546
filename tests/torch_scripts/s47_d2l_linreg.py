import random
import torch
from torch import nn
from torch.utils import data


def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


true_w = torch.tensor([2, -3.4])
true_b = 4.2
torch.manual_seed(0)
features, labels = synthetic_data(true_w, true_b, 1000)
print('features:', features.shape, '\nlabel:', labels.shape, features.dtype)
# deterministic data for the printed fit
features = torch.stack([torch.sin(torch.arange(1000.) * 0.1), torch.cos(torch.arange(1000.) * 0.37)], 1)
labels = (features @ true_w + true_b).reshape(-1, 1) + 0.01 * torch.sin(torch.arange(1000.)).reshape(-1, 1)


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


random.seed(1)
batch_size = 10
for X, y in data_iter(batch_size, features, labels):
    print(X.shape, y.shape, X.dtype)
    break
w = torch.zeros(size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


lr = 0.03
num_epochs = 3
net = linreg
loss = squared_loss
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
print(f'error in estimating w: {(true_w - w.reshape(true_w.shape)).abs().max() < 0.05}')
print(f'error in estimating b: {abs(true_b - b.item()) < 0.05}')


def load_array(data_arrays, batch_size, is_train=True):
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)


data_iter2 = load_array((features, labels), batch_size, is_train=False)
print(next(iter(data_iter2))[0].shape)
net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
net[0].weight.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
for epoch in range(num_epochs):
    for X, y in data_iter2:
        l = loss(net(X), y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f'epoch {epoch + 1}, loss {l:f}')
w = net[0].weight.data
print('w error', (true_w - w.reshape(true_w.shape)).numpy().round(3))
b = net[0].bias.data
print('b error', round(true_b - b.item(), 3))
