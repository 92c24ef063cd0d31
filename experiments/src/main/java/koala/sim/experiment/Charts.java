package koala.sim.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG line charts (XChart) and CSV files, written into the results folder. */
public final class Charts {
    static {
        // no display is needed to draw into an image
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {
    }

    /** A named line: x and y values, with error bars when {@code errors} is not null. */
    public record Line(String name, double[] x, double[] y, double[] errors, boolean markers) {
        public static Line of(String name, List<Double> x, List<Double> y) {
            return new Line(name, unbox(x), unbox(y), null, true);
        }
    }

    public static XYChart chart(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle)
                .build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setPlotGridLinesVisible(true);
        chart.getStyler().setXAxisDecimalPattern("#.#");
        return chart;
    }

    public static void add(XYChart chart, Line line) {
        XYSeries s = line.errors() == null ? chart.addSeries(line.name(), line.x(), line.y())
                : chart.addSeries(line.name(), line.x(), line.y(), line.errors());
        s.setMarker(line.markers() ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
    }

    public static Path png(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path dir, String name) {
        Path file = dir.resolve(name + ".png");
        try {
            Files.createDirectories(dir);
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    public static Path csv(Path dir, String name, String header, List<String> rows) {
        Path file = dir.resolve(name + ".csv");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, header + "\n" + String.join("\n", rows) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    static double[] unbox(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
