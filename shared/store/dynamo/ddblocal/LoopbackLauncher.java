// Starts DynamoDB Local bound to 127.0.0.1 only. DynamoDBLocal.jar has no
// flag for the listen address (its Jetty server binds every interface), so
// this launcher builds the server from the usual command-line flags and sets
// the connector host before starting it. Run in Java's source-file mode with
// DynamoDBLocal.jar on the class path (see ddblocal.go). Reflection keeps it
// free of compile-time dependencies on the jar's internals.
import java.lang.reflect.Field;

public class LoopbackLauncher {
    public static void main(String[] args) throws Exception {
        Class<?> runner = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner");
        Object proxy = runner.getMethod("createServerFromCommandLineArgs", String[].class).invoke(null, (Object) args);
        Field f = proxy.getClass().getDeclaredField("server");
        f.setAccessible(true);
        Object server = f.get(proxy);
        Object[] connectors = (Object[]) server.getClass().getMethod("getConnectors").invoke(server);
        if (connectors.length == 0) {
            System.err.println("LoopbackLauncher: DynamoDB Local server has no connectors");
            System.exit(2);
        }
        for (Object c : connectors) {
            c.getClass().getMethod("setHost", String.class).invoke(c, "127.0.0.1");
        }
        proxy.getClass().getMethod("start").invoke(proxy);
        // start() reports a failed bind on stdout and stops the server
        // instead of throwing; exit so the harness retries on another port.
        if (!(Boolean) server.getClass().getMethod("isStarted").invoke(server)) {
            System.err.println("LoopbackLauncher: DynamoDB Local did not start");
            System.exit(3);
        }
    }
}
