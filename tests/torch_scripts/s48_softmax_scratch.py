import torch
from torch.utils import data

X = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(X.sum(0, keepdim=True), X.sum(1, keepdim=True))


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


X = torch.sin(torch.arange(10.)).reshape(2, 5)
X_prob = softmax(X)
print(X_prob, X_prob.sum(1).round(decimals=6))
num_inputs, num_outputs = 12, 3
W = torch.cos(torch.arange(36.)).reshape(num_inputs, num_outputs) * 0.01
W.requires_grad_(True)
b = torch.zeros(num_outputs, requires_grad=True)


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])


def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])


print(cross_entropy(y_hat, y))


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print(accuracy(y_hat, y) / len(y))


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def evaluate_accuracy(net, data_iter):
    if isinstance(net, torch.nn.Module):
        net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


feats = torch.sin(torch.arange(60 * 12.) * 0.7).reshape(60, 1, 3, 4)
labels = (feats.reshape(60, -1)[:, :3].argmax(1))
train_iter = data.DataLoader(data.TensorDataset(feats, labels), batch_size=16, shuffle=False)
print(evaluate_accuracy(net, train_iter))


def updater(batch_size, lr=0.5):
    with torch.no_grad():
        for param in [W, b]:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def train_epoch_ch3(net, train_iter, loss, updater):
    metric = Accumulator(3)
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        l.sum().backward()
        updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]


for epoch in range(5):
    train_loss, train_acc = train_epoch_ch3(net, train_iter, cross_entropy, updater)
    print(epoch, round(train_loss, 6), round(train_acc, 4))
print(round(evaluate_accuracy(net, train_iter), 4))
net2 = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(12, 3))


def init_weights(m):
    if type(m) == torch.nn.Linear:
        torch.nn.init.zeros_(m.weight)


net2.apply(init_weights)
loss = torch.nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net2.parameters(), lr=0.1)
net2[1].bias.data.zero_()
for epoch in range(3):
    net2.train()
    for X, y in train_iter:
        l = loss(net2(X), y)
        trainer.zero_grad()
        l.mean().backward()
        trainer.step()
    print(epoch, round(evaluate_accuracy(net2, train_iter), 4), net2.training)
