package io.msgx.pipeline.pump;

import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.PipelineStore;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A store whose {@code queue().head()} runs {@code meanwhile} once, right after it has read the head and before it
 * answers: another process's commit falling between the pump's read of the head and its next read. Everything else is
 * the store's own.
 */
final class HeadHook {

    private HeadHook() {
    }

    static PipelineStore afterFirstHead(PipelineStore store, Runnable meanwhile) {
        var done = new AtomicBoolean();
        var queue = proxy(MessageQueue.class, store.queue(), (method, result) -> {
            if (method.equals("head") && done.compareAndSet(false, true)) {
                meanwhile.run();
            }
            return result;
        });
        return proxy(PipelineStore.class, store, (method, result) -> method.equals("queue") ? queue : result);
    }

    private interface After {
        Object apply(String method, Object result);
    }

    private static <T> T proxy(Class<T> type, T target, After after) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
            try {
                return after.apply(method.getName(), method.invoke(target, args));
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }
}
